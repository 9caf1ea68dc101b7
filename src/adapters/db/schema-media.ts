import type { ColumnType, Generated } from 'kysely';

/** Uploads, immutable media facts, versions and what hangs off them: the tables of the media pipeline. */

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
  /** sha256 of the decoded pixels (issue 29: exact duplicates); null for media analysed before it, or too large. */
  pixel_hash: Generated<string | null>;
  color_spread: Generated<number | null>;
  entropy: Generated<number | null>;
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
  /** Custom metadata fields of this version and their types (src/core/custom-fields.ts). */
  field_types: Generated<Record<string, string>>;
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
  n_objects: Generated<number>;
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
  /** Written by an image captioner (enrichment). */
  caption: string | null;
  /** Detected objects (enrichment), each with its box, label, caption and object clusters; null when not enriched. */
  objects: ColumnType<StoredObject[] | null, string | null | undefined, string | null>;
  /** The caption's evidence, OCR text and faces an enrichment found. */
  enrichment: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** The media's created_at, kept for the media list's order (filled from the media on insert when not given). */
  media_created_at: Generated<Date>;
  /** The media's position on the version's embedding map (null until indexed). */
  map_x: number | null;
  map_y: number | null;
}

/** The media list's total of a version, by media type ('' for all), kept once counted. */
export interface MediaListTotalsTable {
  version_id: string;
  media_type: string;
  total: number;
}

/** A media's tags and label in a version, held only for media that have some. */
export interface AnnotationRowsTable {
  version_id: string;
  media_id: string;
  tags: Generated<string[]>;
  /** The media's class name. */
  label: string | null;
}

/** A media's imported custom metadata in a version (field name → value), held only for media that have some. */
export interface FieldRowsTable {
  version_id: string;
  media_id: string;
  custom_fields: Generated<Record<string, unknown>>;
}

/** What readers see: the wide row with its annotations (defaults where it has none). */
export type VersionMediaView = VersionMediaTable &
  Omit<AnnotationRowsTable, 'version_id' | 'media_id'> &
  Omit<FieldRowsTable, 'version_id' | 'media_id'>;

/** One detected object as a version row keeps it; the box is in the media's own pixels. */
export interface StoredObject {
  object_id: string;
  /** The class: the detector's, or the one a user set (then the detector's is kept in detected_label). */
  label: string;
  detected_label?: string;
  score: number;
  box: { x: number; y: number; width: number; height: number };
  caption?: string;
  dominant_color?: string;
  text?: string;
  /** Object cluster ids at levels 0..4 (Explore entity_type=OBJECTS), and the object's uniqueness. */
  clusters?: string[];
  uniqueness_score?: number;
}

export interface EnrichmentResultsTable {
  task_id: string;
  media_id: string;
  caption: string | null;
  objects: ColumnType<Array<StoredObject & { embedding?: number[] }> | null, string | null, string | null>;
  enrichment: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

export interface VersionIndexesTable {
  version_id: string;
  model: string;
  dimensions: number;
  item_count: number;
  mean: Buffer;
  ann_blob_hash: string | null;
  /** The full index's k-NN graph (graph-file.ts); null before migration 0049 and for an empty version. */
  graph_blob_hash: ColumnType<string | null, string | null | undefined, string | null>;
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
