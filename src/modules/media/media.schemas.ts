import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';

export const MediaDetail = Type.Object({
  media_id: Type.String({ format: 'uuid' }),
  dataset_id: Type.String({ format: 'uuid' }),
  media_type: Type.String({ description: 'IMAGE, VIDEO or VIDEO_FRAME' }),
  file_name: Type.String(),
  format: Type.String(),
  mime: Type.String(),
  file_size: Type.Integer(),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  duration_seconds: Nullable(Type.Number()),
  parent_media_id: Nullable(Type.String()),
  frame_timestamp: Nullable(Type.Number()),
  exif: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  phash: Nullable(Type.String()),
  blur: Nullable(Type.Number()),
  brightness: Nullable(Type.Number()),
  quality_flags: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  media_uri: Type.String({ description: 'Signed link to the original bytes, valid one hour' }),
  media_thumb_uri: Nullable(Type.String()),
  media_preview_uri: Nullable(Type.String()),
  frames: Type.Array(Type.Object({ media_id: Type.String(), timestamp: Type.Number() })),
});
