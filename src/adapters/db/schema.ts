import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DatasetStatus } from '../../core/dataset-status.js';
import type { SharedRole } from '../../core/permissions.js';
import type { TaskPhase, TaskStatus, TaskType } from '../../core/tasks.js';
import type { ExportsTable, NotificationsTable, SavedViewRecipientsTable, SavedViewsTable } from './schema-features.js';
import type {
  BlobGcCandidatesTable,
  EnrichmentResultsTable,
  MediaBatchesTable,
  MediaEmbeddingsTable,
  MediaTable,
  SimilarityAnchorsTable,
  SnapshotsTable,
  UploadFilesTable,
  UploadTransactionsTable,
  VersionIndexesTable,
  VersionMediaTable,
  MediaListTotalsTable,
  VersionMediaView,
  AnnotationRowsTable,
  FieldRowsTable,
  VersionsTable,
} from './schema-media.js';

export type * from './schema-features.js';
export type * from './schema-media.js';

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
  enrichment_context_id: Generated<string>;
  /** Enrichment type → model id, for every model applied to this dataset's data. */
  enrichment_models: ColumnType<Record<string, string>, string | undefined, string>;
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

/** A server process on the database (migration 0039): where it keeps blobs and which key it holds. */
export interface NodesTable {
  id: string;
  role: string;
  host: string;
  data_dir: string;
  blob_store: string;
  key_id: string;
  key_shared: boolean;
  started_at: Generated<Date>;
  heartbeat_at: Timestamp;
}

/** A range of a task run's items (upload files, media) that any worker may claim (migration 0040). */
export interface TaskChunksTable {
  task_id: string;
  attempt: number;
  chunk: number;
  first_id: string;
  last_id: string;
  claimed_by: string | null;
  heartbeat_at: Date | null;
  done_at: Date | null;
  error: string | null;
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
  nodes: NodesTable;
  task_chunks: TaskChunksTable;
  upload_transactions: UploadTransactionsTable;
  upload_files: UploadFilesTable;
  media: MediaTable;
  versions: VersionsTable;
  snapshots: SnapshotsTable;
  /** The delta versions and their bases (also in versions.base_id), for the version_media view. */
  version_bases: { version_id: string; base_id: string };
  /** The rows a version holds itself; write here. */
  version_rows: VersionMediaTable;
  media_list_totals: MediaListTotalsTable;
  /** A view: a version's own rows and those it inherits from its base, with their annotations; read here. */
  version_media: VersionMediaView;
  /** Tags and labels a version holds itself; write here. */
  annotation_rows: AnnotationRowsTable;
  /** Versions inheriting the tags and labels of a sealed one. */
  annotation_bases: { version_id: string; base_id: string };
  /** Custom fields a version holds itself; write here. */
  field_rows: FieldRowsTable;
  /** Custom fields of versions that hold theirs whole and many, one partition per version; write through VersionAnnotations. */
  field_sets: FieldRowsTable;
  /** Versions inheriting the custom fields of a sealed one. */
  field_bases: { version_id: string; base_id: string };
  /** A view: version_media's membership alone (no annotations joined). */
  version_members: { version_id: string; media_id: string };
  /** A view: a version's own annotation rows and those it inherits; read here. */
  version_annotations: AnnotationRowsTable;
  /** A view: a version's own field rows and those it inherits; read here. */
  version_fields: FieldRowsTable;
  media_embeddings: MediaEmbeddingsTable;
  version_indexes: VersionIndexesTable;
  similarity_anchors: SimilarityAnchorsTable;
  media_batches: MediaBatchesTable;
  exports: ExportsTable;
  /** Per-media results of a running ENRICHMENT task, moved onto its version at the commit. */
  enrichment_results: EnrichmentResultsTable;
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
