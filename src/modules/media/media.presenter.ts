import type { MediaRow } from '../../adapters/db/schema.js';
import type { MediaVariant } from './media.service.js';

export function presentMedia(
  datasetId: string,
  found: { media: MediaRow; frames: Array<{ id: string; frame_timestamp: number | null }> },
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
    created_at: m.created_at.toISOString(),
    media_uri: link(m.id, 'original'),
    media_thumb_uri: m.thumb_hash ? link(m.id, 'thumbnail') : null,
    media_preview_uri: m.preview_hash ? link(m.id, 'preview') : null,
    frames: found.frames.map((f) => ({ media_id: f.id, timestamp: f.frame_timestamp ?? 0 })),
  };
}
