import { Type } from '@sinclair/typebox';
import { MAX_INT, Nullable } from '../../http/schemas.js';

export const Notification = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ format: 'uuid' }),
    entity_type: Type.String({ description: 'saved_view for alerts' }),
    entity_id: Type.String({ format: 'uuid', description: 'The saved view that alerted' }),
    title: Type.String(),
    message: Type.String(),
    metadata: Type.Object(
      {
        batch_id: Type.String({ format: 'uuid' }),
        is_alert: Type.Boolean(),
        view_name: Type.String(),
        dataset_name: Type.String(),
        result_count: Type.Integer({ description: "New media of the batch that match the view" }),
      },
      { additionalProperties: true },
    ),
    dataset_id: Nullable(Type.String({ format: 'uuid' })),
    created_at: Type.String({ format: 'date-time' }),
    read_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Notification' },
);

const DatasetFilter = Type.Optional(Type.String({ format: 'uuid', description: "Only this dataset's notifications" }));

export const NotificationListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_INT, default: 0 }),
  unread_only: Type.Boolean({ default: false }),
  dataset_id: DatasetFilter,
});

export const NotificationList = Type.Object({
  notifications: Type.Array(Type.Ref('Notification')),
  total: Type.Integer({ description: 'All notifications matching the filters' }),
  has_more: Type.Boolean(),
});

export const DatasetFilterQuery = Type.Object({ dataset_id: DatasetFilter });

export const StreamQuery = Type.Object({
  dataset_id: DatasetFilter,
  last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'For clients that cannot send the Last-Event-ID header' })),
});

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The id of the last event received: the notifications after it are sent first' })),
});

export const NotificationIdParams = Type.Object({ notification_id: Type.String({ format: 'uuid' }) });

export const Ok = Type.Object({ ok: Type.Literal(true) });
export const OkCount = Type.Object({ ok: Type.Literal(true), count: Type.Integer({ description: 'Notifications marked read' }) });
