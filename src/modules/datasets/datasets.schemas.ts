import { Type } from '@sinclair/typebox';
import { DATASET_STATUSES } from '../../core/dataset-status.js';
import { MAX_INT, Nullable, StringEnum } from '../../http/schemas.js';

export const Dataset = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    display_name: Type.String(),
    description: Type.String(),
    status_new: StringEnum(DATASET_STATUSES),
    status: Type.String({ description: 'Legacy status, being retired: read status_new' }),
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    n_images: Type.Integer(),
    n_videos: Type.Integer(),
    n_objects: Type.Integer(),
    fatal_error_msg: Nullable(Type.String()),
    source_dataset_id: Nullable(Type.String({ format: 'uuid' })),
    created_at: Type.String({ format: 'date-time' }),
    created_by: Type.String({ description: 'E-mail of the owner' }),
  },
  { $id: 'Dataset' },
);

export const DatasetListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_INT, default: 0 }),
});

export const NewDatasetQuery = Type.Object({ dataset_name: Type.Optional(Type.String()) });
export const NewDatasetResponse = Type.Object({ dataset_id: Type.String({ format: 'uuid' }) });

export const DatasetPatch = Type.Object(
  { display_name: Type.Optional(Type.String({ minLength: 1 })), description: Type.Optional(Type.String()) },
  { minProperties: 1, additionalProperties: false },
);
