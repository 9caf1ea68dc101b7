import type { MediaInVersion } from './media.repo.js';
import type { MediaVariant } from './media.service.js';

export function presentMedia(
  datasetId: string,
  found: { media: MediaInVersion; frames: Array<{ id: string; frame_timestamp: number | null }> },
  link: (mediaId: string, variant: MediaVariant) => string,
) {
  const m = found.media;
  return {
    media_id: m.id,
    dataset_id: datasetId,
    media_type: m.media_type,
    file_name: m.file_name,
    format: m.format,
    mime: m.mime,
    file_size: m.size,
    width: m.width,
    height: m.height,
    duration_seconds: m.duration_seconds,
    parent_media_id: m.parent_media_id,
    frame_timestamp: m.frame_timestamp,
    exif: m.exif,
    phash: m.phash,
    blur: m.blur,
    brightness: m.brightness,
    quality_flags: m.quality_flags,
    uniqueness_score: m.uniqueness_score,
    is_outlier: m.is_outlier,
    duplicate_group_id: m.duplicate_group,
    cluster_ids: [m.cluster_l0, m.cluster_l1, m.cluster_l2, m.cluster_l3, m.cluster_l4],
    tags: m.tags,
    label: m.label,
    custom_fields: m.custom_fields,
    caption: m.caption,
    objects: (m.objects ?? []).map((o) => ({ object_id: o.object_id, label: o.label, score: o.score, bounding_box: o.box, caption: o.caption ?? null })),
    created_at: m.created_at.toISOString(),
    media_uri: link(m.id, 'original'),
    media_thumb_uri: m.thumb_hash ? link(m.id, 'thumbnail') : null,
    media_preview_uri: m.preview_hash ? link(m.id, 'preview') : null,
    frames: found.frames.map((f) => ({ media_id: f.id, frame_timestamp: f.frame_timestamp ?? 0 })),
  };
}
