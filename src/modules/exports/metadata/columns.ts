import type { ParquetColumnType } from '../../../adapters/parquet/duckdb-parquet.js';
import type { FieldType } from '../../../core/custom-fields.js';
import { ISSUE_THRESHOLDS } from '../../../adapters/media/image-quality.js';
import type { ExportItem } from '../export-items.js';

/** One metadata row, the same columns in every format (spec 2.4: at least uniqueness_score and image_filename). */
export interface MetadataRow {
  media_id: string;
  media_type: string;
  image_filename: string;
  file_name: string;
  file_path: string | null;
  media_uri: string | null;
  file_size: number;
  width: number | null;
  height: number | null;
  uniqueness_score: number | null;
  cluster_id: string | null;
  cluster_id_l1: string | null;
  cluster_id_l2: string | null;
  cluster_id_l3: string | null;
  cluster_id_l4: string | null;
  duplicate_group_id: string | null;
  is_outlier: boolean;
  is_blurry: boolean;
  is_dark: boolean;
  is_bright: boolean;
  quality_flags: string[];
  blur_score: number | null;
  brightness: number | null;
  /** Issue 29 (docs/curation.md): the scores, then whether each issue holds. */
  color_spread: number | null;
  entropy: number | null;
  aspect_ratio: number | null;
  size_ratio: number | null;
  pixel_hash: string | null;
  is_grayscale: boolean;
  is_low_information: boolean;
  is_odd_aspect_ratio: boolean;
  is_odd_size: boolean;
  is_exact_duplicate: boolean;
  /** Label errors (the last LABEL_ERRORS run; null before one, or where the label changed since). */
  mislabel_score: number | null;
  suggested_label: string | null;
  class_outlier_score: number | null;
  is_mislabel: boolean;
  is_class_outlier: boolean;
  captured_at: string | null;
  video_id: string | null;
  frame_timestamp: number | null;
  tags: string[];
  label: string | null;
  /** Enrichment: the image caption, the detected objects (box in the media's pixels) and their labels, OCR text. */
  caption: string | null;
  n_objects: number;
  object_labels: string[];
  objects: ExportObject[];
  ocr_text: string | null;
}

export interface ExportObject {
  object_id: string;
  label: string;
  score: number;
  bbox: [number, number, number, number];
  caption: string | null;
  /** Scored objects only (label errors with target objects): the object's own label errors. */
  mislabel_score?: number | null;
  suggested_label?: string | null;
  class_outlier_score?: number | null;
  is_mislabel?: boolean;
  is_class_outlier?: boolean;
}

/** Parquet (DuckDB) types of the columns, in order; the other formats follow the same order. */
export const COLUMN_TYPES: Record<keyof MetadataRow, ParquetColumnType> = {
  media_id: 'VARCHAR',
  media_type: 'VARCHAR',
  image_filename: 'VARCHAR',
  file_name: 'VARCHAR',
  file_path: 'VARCHAR',
  media_uri: 'VARCHAR',
  file_size: 'BIGINT',
  width: 'INTEGER',
  height: 'INTEGER',
  uniqueness_score: 'DOUBLE',
  cluster_id: 'VARCHAR',
  cluster_id_l1: 'VARCHAR',
  cluster_id_l2: 'VARCHAR',
  cluster_id_l3: 'VARCHAR',
  cluster_id_l4: 'VARCHAR',
  duplicate_group_id: 'VARCHAR',
  is_outlier: 'BOOLEAN',
  is_blurry: 'BOOLEAN',
  is_dark: 'BOOLEAN',
  is_bright: 'BOOLEAN',
  quality_flags: 'VARCHAR[]',
  blur_score: 'DOUBLE',
  brightness: 'DOUBLE',
  color_spread: 'DOUBLE',
  entropy: 'DOUBLE',
  aspect_ratio: 'DOUBLE',
  size_ratio: 'DOUBLE',
  pixel_hash: 'VARCHAR',
  is_grayscale: 'BOOLEAN',
  is_low_information: 'BOOLEAN',
  is_odd_aspect_ratio: 'BOOLEAN',
  is_odd_size: 'BOOLEAN',
  is_exact_duplicate: 'BOOLEAN',
  mislabel_score: 'DOUBLE',
  suggested_label: 'VARCHAR',
  class_outlier_score: 'DOUBLE',
  is_mislabel: 'BOOLEAN',
  is_class_outlier: 'BOOLEAN',
  captured_at: 'TIMESTAMPTZ',
  video_id: 'VARCHAR',
  frame_timestamp: 'DOUBLE',
  tags: 'VARCHAR[]',
  label: 'VARCHAR',
  caption: 'VARCHAR',
  n_objects: 'INTEGER',
  object_labels: 'VARCHAR[]',
  objects: 'JSON',
  ocr_text: 'VARCHAR',
};

export const COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof MetadataRow>;

/** A row: the fixed columns, then one `custom_<field>` column per custom metadata field of the version. */
export type ExportRow = MetadataRow & Record<string, unknown>;

const FIELD_COLUMN_TYPES: Record<FieldType, ParquetColumnType> = {
  string: 'VARCHAR',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  datetime: 'TIMESTAMPTZ',
  string_list: 'VARCHAR[]',
};

export const fieldColumn = (field: string) => `custom_${field}`;

/** Every column of an export of a version with these custom fields (sorted by name), with its Parquet type. */
export function exportColumns(fieldTypes: Record<string, FieldType>): Record<string, ParquetColumnType> {
  const custom = Object.keys(fieldTypes)
    .sort()
    .map((field) => [fieldColumn(field), FIELD_COLUMN_TYPES[fieldTypes[field]!]] as const);
  return { ...COLUMN_TYPES, ...Object.fromEntries(custom) };
}

/** Where a media item's bytes sit in the archive, when images are included. */
export const archivePath = (item: Pick<ExportItem, 'image_filename'>) => `images/${item.image_filename}`;

export function metadataRow(item: ExportItem, includeImages: boolean, fields: readonly string[] = []): ExportRow {
  const inArchive = includeImages ? archivePath(item) : null;
  const flags = item.quality_flags ?? [];
  const objects = item.objects ?? [];
  return {
    media_id: item.media_id,
    media_type: item.media_type,
    image_filename: item.image_filename,
    file_name: item.file_name,
    file_path: inArchive,
    media_uri: inArchive,
    file_size: Number(item.file_size),
    width: item.width,
    height: item.height,
    uniqueness_score: item.uniqueness_score,
    cluster_id: item.cluster_l0,
    cluster_id_l1: item.cluster_l1,
    cluster_id_l2: item.cluster_l2,
    cluster_id_l3: item.cluster_l3,
    cluster_id_l4: item.cluster_l4,
    duplicate_group_id: item.duplicate_group,
    is_outlier: item.is_outlier,
    is_blurry: flags.includes('blurry'),
    is_dark: flags.includes('dark'),
    is_bright: flags.includes('bright'),
    quality_flags: flags,
    blur_score: item.blur,
    brightness: item.brightness,
    color_spread: item.color_spread,
    entropy: item.entropy,
    aspect_ratio: aspectRatio(item.width, item.height),
    size_ratio: item.size_ratio,
    pixel_hash: item.pixel_hash,
    is_grayscale: flags.includes('grayscale'),
    is_low_information: flags.includes('low_information'),
    is_odd_aspect_ratio: isOddAspectRatio(item.width, item.height),
    is_odd_size: item.is_odd_size,
    is_exact_duplicate: item.is_exact_duplicate,
    mislabel_score: item.mislabel_score ?? null,
    suggested_label: item.suggested_label ?? null,
    class_outlier_score: item.class_outlier_score ?? null,
    is_mislabel: item.is_mislabel ?? false,
    is_class_outlier: item.is_class_outlier ?? false,
    captured_at: item.captured_at,
    video_id: item.video_id,
    frame_timestamp: item.frame_timestamp,
    tags: item.tags ?? [],
    label: item.label,
    ...Object.fromEntries(fields.map((f) => [fieldColumn(f), item.custom_fields?.[f] ?? null])),
    caption: item.caption,
    n_objects: objects.length,
    object_labels: [...new Set(objects.map((o) => o.label))].sort(),
    objects: objects.map((o) => ({
      object_id: o.object_id,
      label: o.label,
      score: o.score,
      bbox: [o.box.x, o.box.y, o.box.width, o.box.height],
      caption: o.caption ?? null,
      ...(o.is_mislabel === undefined
        ? {}
        : { mislabel_score: o.mislabel_score ?? null, suggested_label: o.suggested_label ?? null, class_outlier_score: o.class_outlier_score ?? null, is_mislabel: o.is_mislabel, is_class_outlier: o.is_class_outlier ?? false }),
    })),
    ocr_text: item.ocr_text,
  };
}

/** max(w/h, h/w), as quality-issues.ts's aspectRatio computes it in SQL. */
function aspectRatio(width: number | null, height: number | null): number | null {
  return width && height ? Math.max(width, height) / Math.min(width, height) : null;
}

function isOddAspectRatio(width: number | null, height: number | null): boolean {
  return !!width && !!height && Math.max(width, height) > ISSUE_THRESHOLDS.oddAspectRatioAbove * Math.min(width, height);
}
