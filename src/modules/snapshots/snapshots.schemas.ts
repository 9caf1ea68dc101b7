import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';

export const Snapshot = Type.Object(
  {
    snapshot_id: Type.String({ format: 'uuid' }),
    snapshot_name: Type.String(),
    source_dataset_name: Type.String({ description: 'Name of the dataset the snapshot belongs to' }),
    created_at: Type.String({ format: 'date-time' }),
    created_by: Type.String({ description: 'E-mail of the creator' }),
    n_images: Type.Integer(),
    n_videos: Type.Integer(),
    description: Type.String(),
    reason: Type.String({ enum: ['manual', 'creation', 'clone'] }),
    training_model_id: Nullable(Type.String({ format: 'uuid' })),
    training_model_name: Nullable(Type.String()),
    is_current: Type.Boolean(),
    is_restoring: Type.Boolean(),
  },
  { $id: 'Snapshot' },
);

export const SnapshotParams = Type.Object({
  dataset_id: Type.String({ format: 'uuid' }),
  snapshot_id: Type.String({ format: 'uuid' }),
});

/** Restore also takes the literal `current`: the dataset's current snapshot. */
export const RestoreParams = Type.Object({
  dataset_id: Type.String({ format: 'uuid' }),
  snapshot_id: Type.Union([Type.String({ format: 'uuid' }), Type.Literal('current')]),
});

export const SnapshotCreateBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), description: Type.Optional(Type.String({ maxLength: 10_000 })) },
  { additionalProperties: false },
);

export const SnapshotPatchBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), description: Type.Optional(Type.String({ maxLength: 10_000 })) },
  { additionalProperties: false, minProperties: 1 },
);
