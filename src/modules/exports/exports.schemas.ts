import { Type } from '@sinclair/typebox';
import { EXPORT_FORMATS } from '../../core/exports.js';
import { Expires, Nullable, StringEnum } from '../../http/schemas.js';

const Uuid = Type.String({ format: 'uuid' });
const Format = StringEnum(EXPORT_FORMATS, {
  description:
    "json or parquet (spec); csv and coco are Loupe extensions. json: metadata.json as the hosted service documents it, {info, media_items: [{media_id, media_type: image|video_frame, file_name, file_path, file_size: '48.96KB', height, width, url, cluster_id, uniqueness_score, metadata_items: [{type, properties}]}, …]}, then Loupe's columns; parquet and csv: the flat typed columns",
});

export const FullExportQuery = Type.Object({
  file_name: Type.String({ minLength: 1, maxLength: 200, description: 'Name of the output ZIP file' }),
  export_format: Format,
  include_images: Type.Boolean({ default: false }),
});

export const SelectiveExportQuery = Type.Object({
  export_format: Format,
  include_images: Type.Boolean({ default: false }),
  file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

const MediaSelectionItem = Type.Object(
  { type: Type.Literal('media'), payload: Type.Object({ media_ids: Type.Array(Uuid, { maxItems: 1_000_000 }) }) },
  { additionalProperties: false },
);
const ClusterSelectionItem = Type.Object(
  {
    type: Type.Literal('cluster'),
    payload: Type.Object({
      cluster_id: Uuid,
      cluster_filters: Type.Optional(Type.Object({ entity_type: Type.Optional(Type.String()) })),
      exclude_media_ids: Type.Optional(Type.Array(Uuid)),
    }),
  },
  { additionalProperties: false },
);

export const SelectiveExportBody = Type.Object({
  media_selection: Type.Array(Type.Union([MediaSelectionItem, ClusterSelectionItem]), { minItems: 1, maxItems: 10_000 }),
});

export const ExportCreated = Type.Object({ id: Type.String({ format: 'uuid', description: 'The export task id, for export_status' }) });

export const ExportStatusQuery = Type.Object({ export_task_id: Uuid });

export const ExportStatusBody = Type.Object({
  status: StringEnum(['PENDING', 'COMPLETED', 'FAILED', 'REJECTED'] as const),
  download_uri: Nullable(Type.String({ description: 'Signed, expiring link to the ZIP (COMPLETED only); no header needed' })),
  result_message: Nullable(Type.String()),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
});

export const DownloadParams = Type.Object({ export_id: Uuid });
export const DownloadQuery = Type.Object({ expires: Type.Optional(Expires), signature: Type.Optional(Type.String()) });
