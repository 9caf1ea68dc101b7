import { Type } from '@sinclair/typebox';
import { TASK_SORT_FIELDS, TASK_STATUSES, TASK_TYPES } from '../../core/tasks.js';
import { MAX_INT, Nullable, StringEnum } from '../../http/schemas.js';


export const Task = Type.Object(
  {
    task_id: Type.String({ format: 'uuid' }),
    dataset_id: Type.String({ format: 'uuid' }),
    dataset_name: Type.String(),
    dataset_status: Type.String({ description: 'READY, READ_ONLY, PARTIAL_INDEX, INDEXING or ERROR' }),
    created_by: Type.String({ description: 'E-mail of the user who started the task' }),
    task_type: StringEnum(TASK_TYPES),
    status: StringEnum(TASK_STATUSES),
    status_message: Type.String(),
    progress_percentage: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    error_message: Nullable(Type.String()),
    start_time: Type.String({ format: 'date-time' }),
    end_time: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Task' },
);

const TimeRange = {
  start_time_from: Type.Optional(Type.String({ format: 'date-time', description: 'Tasks started on or after' })),
  start_time_to: Type.Optional(Type.String({ format: 'date-time', description: 'Tasks started on or before' })),
};

export const TaskListQuery = Type.Object({
  dataset_id: Type.Optional(Type.String({ format: 'uuid' })),
  dataset_name: Type.Optional(Type.String()),
  task_type: Type.Optional(StringEnum(TASK_TYPES)),
  task_status: Type.Optional(StringEnum(TASK_STATUSES)),
  created_by: Type.Optional(Type.String({ description: 'E-mail of the initiator' })),
  ...TimeRange,
  sort_by: Type.Optional(StringEnum(TASK_SORT_FIELDS)),
  sort_order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  // The last page whose offset, (page - 1) × the largest page_size, still fits int4.
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: Math.floor(MAX_INT / 50) + 1, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 5, maximum: 50, default: 20 })),
});

export const TaskList = Type.Object({
  tasks: Type.Array(Type.Ref('Task')),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});

export const TaskFiltersQuery = Type.Object(TimeRange);

export const TaskFilterOptions = Type.Object({
  dataset_names: Type.Array(Type.String()),
  dataset_ids: Type.Array(Type.String({ format: 'uuid' })),
  task_types: Type.Array(Type.String()),
  created_by: Type.Array(Type.String()),
});

export const TaskIdParams = Type.Object({ task_id: Type.String({ format: 'uuid' }) });
