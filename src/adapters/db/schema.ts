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
  current_snapshot_id: Generated<string | null>;
  embedding_config: ColumnType<EmbeddingConfig | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

/** Which embedder indexed a dataset; media added later must be embedded the same way. */
export interface EmbeddingConfig {
  model: string;
  version: string;
  dimensions: number;
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
  /** Bumped by every run and retry; a run writes only while the number is still its own. */
  attempt: Generated<number>;
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
  search_text: ColumnType<string, never, never>;
  created_at: Generated<Date>;
}

export interface MediaEmbeddingsTable {
  media_id: string;
  /** `name@version` of the embedder. */
  model: string;
  vector: Buffer;
}

export interface VersionsTable {
  id: Generated<string>;
  /** The dataset that made it; null once that dataset is deleted (a clone may still use the version). */
  dataset_id: string | null;
  parent_id: string | null;
  sealed: Generated<boolean>;
  task_id: string | null;
  created_at: Generated<Date>;
  /** When it stopped being a dataset's head; the sweep waits a grace period after this. */
  released_at: Date | null;
  /** A sealed version whose rows this one has too, except where it holds its own row for the media. */
  base_id: Generated<string | null>;
}

export type SnapshotReason = 'manual' | 'creation' | 'clone';

export interface SnapshotsTable {
  id: Generated<string>;
  dataset_id: string;
  version_id: string;
  name: string;
  description: Generated<string>;
  reason: SnapshotReason;
  n_images: number;
  n_videos: number;
  created_by: string;
  created_at: Generated<Date>;
  deleted_at: Date | null;
  training_model_id: string | null;
  training_model_name: string | null;
}

export interface VersionMediaTable {
  version_id: string;
  media_id: string;
  /** Position of the media's vector in the version's ANN index. */
  ordinal: number | null;
  cluster_l0: string | null;
  cluster_l1: string | null;
  cluster_l2: string | null;
  cluster_l3: string | null;
  cluster_l4: string | null;
  uniqueness_score: number | null;
  nn_similarity: number | null;
  is_outlier: Generated<boolean>;
  duplicate_group: string | null;
}

export interface VersionIndexesTable {
  version_id: string;
  model: string;
  dimensions: number;
  item_count: number;
  mean: Buffer;
  ann_blob_hash: string | null;
  params: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
}

export interface SimilarityAnchorsTable {
  id: Generated<string>;
  dataset_id: string;
  model: string;
  vector: Buffer;
  file_name: string;
  created_by: string;
  created_at: Generated<Date>;
}

export interface BlobGcCandidatesTable {
  hash: string;
  queued_at: Generated<Date>;
}

export interface MediaBatchesTable {
  id: string;
  dataset_id: string;
  trans_id: number;
  /** The version the batch committed; null once the sweep reclaimed it. */
  version_id: string | null;
  media_count: number;
  processed_at: Generated<Date>;
  alerts_evaluated_at: Date | null;
}

export type ExportFormat = 'json' | 'parquet' | 'csv' | 'coco';
export type ExportState = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'REJECTED';

export interface ExportsTable {
  id: Generated<string>;
  dataset_id: string;
  /** The head when the export started; null only if the sweep reclaimed it after the export ended. */
  version_id: string | null;
  created_by: string;
  file_name: string;
  export_format: ExportFormat;
  include_images: boolean;
  /** The media_selection of a selective export; null for a whole dataset. */
  selection: ColumnType<unknown, string | null, string | null>;
  status: ExportState;
  progress: Generated<number>;
  result_message: string | null;
  item_count: number | null;
  blob_hash: string | null;
  size: number | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
  expires_at: Date | null;
}

/** A stored Explore query on a dataset: `query` holds the Explore parameters it was saved with. */
export interface SavedViewsTable {
  id: Generated<string>;
  dataset_id: string;
  name: string;
  query: ColumnType<Record<string, unknown>, string, string>;
  created_by: string;
  monitoring_enabled: Generated<boolean>;
  alerting_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Users a view's owner chose to alert besides themselves. */
export interface SavedViewRecipientsTable {
  view_id: string;
  user_id: string;
}

export interface NotificationsTable {
  id: Generated<string>;
  /** Commit-ordered: the stream's event id. */
  seq: ColumnType<number, never, never>;
  user_id: string;
  dataset_id: string | null;
  entity_type: string;
  entity_id: string;
  batch_id: string | null;
  title: string;
  message: string;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  read_at: Date | null;
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
  snapshots: SnapshotsTable;
  /** The delta versions and their bases (also in versions.base_id), for the version_media view. */
  version_bases: { version_id: string; base_id: string };
  /** The rows a version holds itself; write here. */
  version_rows: VersionMediaTable;
  /** A view: a version's own rows and those it inherits from its base; read here. */
  version_media: VersionMediaTable;
  media_embeddings: MediaEmbeddingsTable;
  version_indexes: VersionIndexesTable;
  similarity_anchors: SimilarityAnchorsTable;
  media_batches: MediaBatchesTable;
  exports: ExportsTable;
  blob_gc_candidates: BlobGcCandidatesTable;
  saved_views: SavedViewsTable;
  saved_view_recipients: SavedViewRecipientsTable;
  notifications: NotificationsTable;
}

export type UserRow = Selectable<UsersTable>;
export type DatasetRow = Selectable<DatasetsTable>;
export type NewDataset = Insertable<DatasetsTable>;
export type TaskRow = Selectable<TasksTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMedia = Insertable<MediaTable>;
export type UploadFileRow = Selectable<UploadFilesTable>;
