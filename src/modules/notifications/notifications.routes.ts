import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { errorResponses } from '../../http/schemas.js';
import { presentNotification } from './notifications.presenter.js';
import { DatasetFilterQuery, NotificationIdParams, NotificationList, NotificationListQuery, Ok, OkCount } from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

/** Spec 4.8 and section 6: read-only for clients; the stream is in notification-stream.routes.ts. */
export function notificationsRoutes(app: FastifyInstance, deps: { notifications: NotificationsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { notifications } = deps;

  r.get(
    '/api/v1/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: "The caller's notifications, newest first; increment offset by limit for the next page (pages past the end are empty)",
        querystring: NotificationListQuery,
        response: { 200: NotificationList, ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const page = await notifications.list(principalOf(request), request.query);
      return { notifications: page.rows.map(presentNotification), total: page.total, has_more: page.hasMore };
    },
  );

  r.get(
    '/api/v1/notifications/unread-count',
    {
      schema: {
        tags: ['notifications'],
        summary: "How many of the caller's notifications are unread: a bare integer",
        querystring: DatasetFilterQuery,
        response: { 200: Type.Integer(), ...errorResponses(401, 422) },
      },
    },
    async (request) => notifications.unreadCount(principalOf(request), request.query.dataset_id),
  );

  r.post(
    '/api/v1/notifications/:notification_id/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark one notification read; 404 when it is missing, not the caller’s, or already read',
        params: NotificationIdParams,
        response: { 200: Ok, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      await notifications.markRead(principalOf(request), request.params.notification_id);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/v1/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: "Mark all the caller's unread notifications read, or only one dataset's",
        querystring: DatasetFilterQuery,
        response: { 200: OkCount, ...errorResponses(401, 422) },
      },
    },
    async (request) => ({ ok: true as const, count: await notifications.markAllRead(principalOf(request), request.query.dataset_id) }),
  );
}
