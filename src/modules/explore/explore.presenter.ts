import type { Static } from '@sinclair/typebox';
import { ISSUE_THRESHOLDS } from '../../adapters/media/image-quality.js';
import type { MediaVariant } from '../media/media.service.js';
import type { Cluster, Preview } from './explore.schemas.js';
import type { ExploreRow, ObjectRow } from './explore-rows.js';

const FLAG_ISSUES: Record<string, string> = { blurry: 'blur', dark: 'dark', bright: 'bright' };

/** Groups the page's rows (already in order) into clusters in the Explore shape clients expect. */
export function presentClusters(rows: Array<ExploreRow | ObjectRow>, entityType: string, relevanceType: string | null, link: (mediaId: string, variant: MediaVariant) => string) {
  const clusters: Array<Static<typeof Cluster>> = [];
  for (const row of rows) {
    let cluster = clusters.at(-1);
    if (!cluster || cluster.cluster_id !== row.cluster_id) {
      cluster = emptyCluster(row, entityType);
      clusters.push(cluster);
    }
    const object = 'object_id' in row ? row : null;
    cluster.previews.push({
      type: row.media_type,
      media_id: row.media_id,
      media_uri: link(row.media_id, 'original'),
      media_thumb_uri: row.thumb_hash ? link(row.media_id, 'thumbnail') : null,
      file_name: row.file_name,
      caption: object ? object.object_caption : row.caption,
      width: row.width,
      height: row.height,
      relevance_score: row.relevance,
      relevance_score_type: row.relevance === null ? null : relevanceType,
      uniqueness_score: row.uniqueness_score,
      issues: object ? [...issuesOf(row), ...objectIssuesOf(object)] : issuesOf(row),
      duplicate_group_id: row.duplicate_group,
      video_id: row.parent_media_id,
      frame_timestamp: row.frame_timestamp,
      tags: row.tags,
      label: row.label,
      ...(object ? { object_id: object.object_id, score: object.score, bounding_box: object.box } : {}),
      ...(object?.is_mislabel ? { suggested_label: object.suggested_label } : {}),
    });
    const caption = object ? object.object_caption : row.caption;
    if (caption && !cluster.captions.includes(caption)) cluster.captions.push(caption);
    for (const label of [row.label, ...row.object_labels]) if (label !== null && !cluster.labels.includes(label)) cluster.labels.push(label);
    for (const tag of row.tags) if (!cluster.user_tags.includes(tag)) cluster.user_tags.push(tag);
  }
  return clusters;
}

function emptyCluster(row: ExploreRow, entityType: string): Static<typeof Cluster> {
  return {
    cluster_id: row.cluster_id,
    type: entityType,
    n_images: row.n_images,
    n_objects: row.cluster_objects,
    n_videos: row.n_videos,
    n_media: row.cluster_size,
    previews: [] as Array<Static<typeof Preview>>,
    labels: [],
    user_tags: [],
    captions: [],
  };
}

/** An object's own label errors, after its media's issues. */
function objectIssuesOf(object: ObjectRow): string[] {
  return [...(object.is_mislabel ? ['mislabels'] : []), ...(object.is_class_outlier ? ['class_outliers'] : [])];
}

function issuesOf(row: ExploreRow): string[] {
  const issues = row.quality_flags.map((f) => FLAG_ISSUES[f] ?? f);
  if (row.is_outlier) issues.push('outliers');
  if (row.duplicate_group) issues.push('duplicates');
  if (row.version_issues.includes('exact_duplicates')) issues.push('exact_duplicates');
  const { width, height } = row;
  if (width && height && Math.max(width, height) > ISSUE_THRESHOLDS.oddAspectRatioAbove * Math.min(width, height)) issues.push('odd_aspect_ratio');
  if (row.version_issues.includes('odd_size')) issues.push('odd_size');
  return issues;
}
