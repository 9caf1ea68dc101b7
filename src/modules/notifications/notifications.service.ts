import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { StreamSink, Subscription, NotificationStreams } from './notification-streams.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

export interface NotificationPage {
  rows: NotificationRow[];
  total: number;
  hasMore: boolean;
}

/**
 * Spec 4.8: each user reads and marks only their own notifications. Nothing here creates one: the alert
 * evaluation in the worker (alerts.service.ts) is the only writer.
 */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepo,
    private readonly streams: NotificationStreams,
  ) {}

  async list(principal: Principal, q: { limit: number; offset: number; unread_only: boolean; dataset_id?: string }): Promise<NotificationPage> {
    const { rows, total } = await this.repo.page({ userId: principal.userId, datasetId: q.dataset_id, unreadOnly: q.unread_only }, q.limit, q.offset);
    return { rows, total, hasMore: q.offset + rows.length < total };
  }

  unreadCount(principal: Principal, datasetId?: string): Promise<number> {
    return this.repo.unreadCount(principal.userId, datasetId);
  }

  async markRead(principal: Principal, id: string): Promise<void> {
    if (!(await this.repo.markRead(principal.userId, id))) throw errors.notificationNotFound();
  }

  markAllRead(principal: Principal, datasetId?: string): Promise<number> {
    return this.repo.markAllRead(principal.userId, datasetId);
  }

  /** `lastEventId`: the `id:` of the last event the client received, from its Last-Event-ID header. */
  openStream(principal: Principal, datasetId: string | null, lastEventId: number | null, sink: StreamSink): Promise<Subscription> {
    return this.streams.open(principal.userId, datasetId, lastEventId, sink);
  }

  closeStream(subscription: Subscription): void {
    this.streams.close(subscription);
  }

  /** Server shutdown: open streams would keep it from closing. */
  closeAllStreams(): void {
    this.streams.closeAll();
  }
}
