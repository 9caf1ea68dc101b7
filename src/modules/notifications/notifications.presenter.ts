import type { NotificationRow } from './notifications.repo.js';

/** The notification as the list and the stream both send it. */
export function presentNotification(n: NotificationRow) {
  return {
    id: n.id,
    user_id: n.user_id,
    entity_type: n.entity_type,
    entity_id: n.entity_id,
    title: n.title,
    message: n.message,
    metadata: n.metadata,
    dataset_id: n.dataset_id,
    created_at: n.created_at.toISOString(),
    read_at: n.read_at ? n.read_at.toISOString() : null,
  };
}
