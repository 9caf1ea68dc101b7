import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DatasetStatus } from '../../core/dataset-status.js';
import type { SharedRole } from '../../core/permissions.js';
import type { TaskPhase, TaskStatus, TaskType } from '../../core/tasks.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  api_key: string;
  user_id: string;
  secret_ciphertext: string;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  api_key: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface DatasetsTable {
  id: Generated<string>;
  display_name: string;
  description: Generated<string>;
  owner_id: string;
  status_new: DatasetStatus;
  progress: Generated<number>;
  n_images: Generated<number>;
  n_videos: Generated<number>;
  n_objects: Generated<number>;
  fatal_error_msg: string | null;
  source_dataset_id: string | null;
  snapshots_enabled: Generated<boolean>;
  head_version_id: Generated<string | null>;
  created_at: Generated<Date>;
}

export interface DatasetAccessTable {
  dataset_id: string;
  user_id: string;
  role: SharedRole;
  granted_by: string;
  granted_at: Generated<Date>;
}

export interface TasksTable {
  id: Generated<string>;
  dataset_id: string;
  task_type: TaskType;
  status: TaskStatus;
  status_message: string;
  progress_percentage: number | null;
  error_message: string | null;
  created_by: string;
  config: ColumnType<Record<string, unknown>, string, string>;
  phase: Generated<TaskPhase>;
  start_time: Generated<Date>;
  end_time: Date | null;
  worker_instance: string | null;
  job_locked_by: string | null;
}

export interface TaskCountsTable {
  dataset_id: string;
  task_type: TaskType;
  status: TaskStatus;
  created_by: string;
  n: number;
}

export interface WorkerInstancesTable {
  id: string;
  started_at: Generated<Date>;
  heartbeat_at: Timestamp;
}

export type MediaType = 'IMAGE' | 'VIDEO' | 'VIDEO_FRAME';
export type UploadStatus = 'OPEN' | 'PROCESSING' | 'PROCESSED';

export interface UploadTransactionsTable {
  dataset_id: string;
  trans_id: number;
  status: Generated<UploadStatus>;
  created_by: string;
  created_at: Generated<Date>;
}

export interface UploadFilesTable {
  id: Generated<string>;
  dataset_id: string;
  trans_id: number;
  file_name: string;
  blob_hash: string;
  size: number;
  kind: 'image' | 'video';
  format: string;
  mime: string;
  media_id: string | null;
  error: string | null;
  created_at: Generated<Date>;
}

export interface MediaTable {
  id: Generated<string>;
  blob_hash: string;
  media_type: MediaType;
  parent_media_id: string | null;
  frame_timestamp: number | null;
  file_name: string;
  format: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  exif: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  thumb_hash: string | null;
  preview_hash: string | null;
  phash: string | null;
  blur: number | null;
  brightness: number | null;
  quality_flags: Generated<string[]>;
  created_at: Generated<Date>;
}

export interface VersionsTable {
  id: Generated<string>;
  dataset_id: string;
  parent_id: string | null;
  sealed: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface VersionMediaTable {
  version_id: string;
  media_id: string;
}

export interface BlobGcCandidatesTable {
  hash: string;
  queued_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  datasets: DatasetsTable;
  dataset_access: DatasetAccessTable;
  tasks: TasksTable;
  task_counts: TaskCountsTable;
  worker_instances: WorkerInstancesTable;
  upload_transactions: UploadTransactionsTable;
  upload_files: UploadFilesTable;
  media: MediaTable;
  versions: VersionsTable;
  version_media: VersionMediaTable;
  blob_gc_candidates: BlobGcCandidatesTable;
}

export type UserRow = Selectable<UsersTable>;
export type DatasetRow = Selectable<DatasetsTable>;
export type NewDataset = Insertable<DatasetsTable>;
export type TaskRow = Selectable<TasksTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMedia = Insertable<MediaTable>;
export type UploadFileRow = Selectable<UploadFilesTable>;
