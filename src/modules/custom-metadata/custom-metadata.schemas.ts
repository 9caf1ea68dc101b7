import { Type } from '@sinclair/typebox';
import { FIELD_TYPES } from '../../core/custom-fields.js';
import { Nullable, StringEnum } from '../../http/schemas.js';

const Field = Type.Object({ name: Type.String(), type: StringEnum(FIELD_TYPES) });

export const FieldSchema = Type.Object({ fields: Type.Array(Field, { description: "The head version's custom fields (a restore brings its list back)" }) });

export const ImportParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }), task_id: Type.String({ format: 'uuid' }) });

export const ImportStarted = Type.Object({ task_id: Type.String({ format: 'uuid', description: 'The CUSTOM_METADATA task' }) });

export const ImportReport = Type.Object({
  task_id: Type.String({ format: 'uuid' }),
  status: Type.String(),
  status_message: Type.String(),
  error_message: Nullable(Type.String()),
  progress_percentage: Nullable(Type.Integer()),
  file_name: Type.String(),
  key: Type.String({ description: 'media_id or file_name' }),
  fields: Type.Array(Field),
  report: Nullable(
    Type.Object(
      {
        rows: Type.Integer(),
        matched: Type.Integer({ description: 'Rows whose key named media of the dataset' }),
        unmatched: Type.Integer(),
        rejected: Type.Integer({ description: 'Rows refused (a bad value, an empty key, a broken line); nothing of them is applied' }),
        rejections: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() }), { description: 'The first 100' }),
        unmatched_keys: Type.Array(Type.String(), { description: 'The first 20' }),
      },
      { additionalProperties: true },
    ),
  ),
});
