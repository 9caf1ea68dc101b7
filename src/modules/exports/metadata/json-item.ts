import type { ExportItem } from '../export-items.js';
import type { ExportRow } from './columns.js';

/** One entry of a media item's `metadata_items`, as the hosted service's JSON export writes them. */
export interface MetadataItem {
  type: 'issue' | 'user_tag' | 'video_info' | 'object_label' | 'image_label' | 'caption';
  properties: Record<string, unknown>;
}

/** The columns the docs' item fields replace (file_size becomes text, media_type lower case). */
const REPLACED = new Set(['media_id', 'media_type', 'file_name', 'file_path', 'file_size', 'height', 'width', 'cluster_id', 'uniqueness_score']);

const MEDIA_TYPE: Record<ExportItem['media_type'], string> = { IMAGE: 'image', VIDEO: 'video', VIDEO_FRAME: 'video_frame' };

/**
 * A media item of the JSON export in the hosted service's documented shape (docs "JSON Export Format":
 * media_type `image`/`video_frame`, file_size like `48.96KB`, a `metadata_items` list), followed by
 * Loupe's own columns (image_filename, media_uri, the cluster levels, flags, tags, custom fields…).
 */
export function jsonMediaItem(row: ExportRow, item: ExportItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
    media_id: row.media_id,
    media_type: MEDIA_TYPE[item.media_type],
    file_name: row.file_name.slice(row.file_name.lastIndexOf('/') + 1),
    file_path: row.file_name,
    file_size: formatFileSize(row.file_size),
    file_size_bytes: row.file_size,
    height: row.height,
    width: row.width,
    url: row.media_uri,
    cluster_id: row.cluster_id,
    uniqueness_score: row.uniqueness_score,
    metadata_items: metadataItems(row, item),
  };
  // A plain loop, not entries/fromEntries: those leave a slow dictionary-mode object, ten times slower to build and stringify.
  for (const key in row) if (!REPLACED.has(key)) out[key] = row[key];
  return out;
}

export function metadataItems(row: ExportRow, item: ExportItem): MetadataItem[] {
  const out: MetadataItem[] = [];
  if (item.media_type === 'VIDEO_FRAME') out.push(videoInfo(item));
  if (row.duplicate_group_id !== null) {
    out.push(issue('duplicates', item.nn_similarity ?? 1, { duplicate_group_id: row.duplicate_group_id }));
  }
  if (row.is_outlier) out.push(issue('outliers', row.uniqueness_score ?? 1));
  // Quality flags are yes/no: a flagged item is an issue with full confidence.
  if (row.is_blurry) out.push(issue('blur', 1));
  if (row.is_dark) out.push(issue('dark', 1));
  if (row.is_bright) out.push(issue('bright', 1));
  if (row.is_exact_duplicate) out.push(issue('exact_duplicates', 1));
  if (row.is_grayscale) out.push(issue('grayscale', 1));
  if (row.is_low_information) out.push(issue('low_information', 1));
  if (row.is_odd_aspect_ratio) out.push(issue('odd_aspect_ratio', 1));
  if (row.is_odd_size) out.push(issue('odd_size', 1));
  if (row.is_mislabel) out.push(issue('mislabels', row.mislabel_score ?? 1, { suggested_label: row.suggested_label }));
  if (row.is_class_outlier) out.push(issue('class_outliers', row.class_outlier_score ?? 1));
  for (const tag of row.tags) out.push({ type: 'user_tag', properties: { tag_name: tag } });
  if (row.label !== null) out.push({ type: 'image_label', properties: { category_name: row.label, source: 'User' } });
  if (row.caption !== null) out.push(caption(row.caption));
  for (const o of row.objects) {
    out.push({
      type: 'object_label',
      properties: {
        bbox: o.bbox,
        category_name: o.label,
        source: 'Model',
        confidence: o.score,
        object_id: o.object_id,
        metadata_items: [
          ...(o.caption === null ? [] : [caption(o.caption)]),
          ...(o.is_mislabel ? [issue('mislabels', o.mislabel_score ?? 1, { suggested_label: o.suggested_label ?? null })] : []),
          ...(o.is_class_outlier ? [issue('class_outliers', o.class_outlier_score ?? 1)] : []),
        ],
      },
    });
  }
  return out;
}

function issue(issueType: string, confidence: number, extra: Record<string, unknown> = {}): MetadataItem {
  return { type: 'issue', properties: { issue_type: issueType, confidence: round(Math.min(1, Math.max(0, confidence))), ...extra } };
}

function caption(text: string): MetadataItem {
  return { type: 'caption', properties: { text, source: 'AI model' } };
}

/** Both forms the docs show: video_id/frame_number/timestamp and video_name/frame_timestamp. */
function videoInfo(item: ExportItem): MetadataItem {
  const frame = /#frame-(\d+)\.[^.]*$/.exec(item.file_name);
  const seconds = item.frame_timestamp;
  return {
    type: 'video_info',
    properties: {
      video_id: item.video_id,
      video_name: item.video_name,
      frame_number: frame ? Number(frame[1]) : null,
      frame_timestamp: seconds,
      timestamp: seconds === null ? null : clockTime(seconds),
    },
  };
}

/** Bytes as the docs print them: two decimals and the largest unit from KB up that keeps the value ≥ 1 ("48.96KB"). */
export function formatFileSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)}${units[unit]}`;
}

/** Seconds as `HH:MM:SS.mmm` ("00:00:00.567"). */
export function clockTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
