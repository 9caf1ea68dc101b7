import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { errorResponses } from '../../http/schemas.js';
import { type StreamSink, type Subscription, sseEvent } from './notification-streams.js';
import { StreamHeaders, StreamQuery } from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Proxies (nginx) must pass each event on at once rather than buffer the response.
  'x-accel-buffering': 'no',
};

/** Spec section 6: Server-Sent Events, `notification` events with an `id:` for Last-Event-ID, `ping` every 3 s. */
export function notificationStreamRoutes(app: FastifyInstance, deps: { notifications: NotificationsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => deps.notifications.closeAllStreams());

  r.get(
    '/api/v1/notifications/stream',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'Server-Sent Events until the client disconnects: `event: notification` (`id:` = its sequence number, `data:` = the notification JSON) and `event: ping` every 3 s (`data: {"time": …}`); every data line is one JSON object. Reconnect with Last-Event-ID to receive what was missed.',
        produces: ['text/event-stream'],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: { description: 'An event stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(401, 422),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const last = request.headers['last-event-id'] ?? request.query.last_event_id;
      reply.hijack();
      const res = reply.raw;
      res.socket?.setNoDelay(true);
      res.writeHead(200, SSE_HEADERS);
      res.write(`retry: 3000\n${sseEvent('ping', { time: new Date().toISOString() })}`);
      const sink: StreamSink = {
        write: (chunk) => {
          if (!res.writableEnded && !res.destroyed) res.write(chunk);
        },
        backlog: () => res.writableLength,
        end: () => res.end(),
      };
      let subscription: Subscription | null = null;
      let gone = false;
      res.on('close', () => {
        gone = true;
        if (subscription) deps.notifications.closeStream(subscription);
      });
      try {
        subscription = await deps.notifications.openStream(principal, request.query.dataset_id ?? null, last === undefined ? null : Number(last), sink);
        if (gone) deps.notifications.closeStream(subscription);
      } catch (err) {
        request.log.error({ err }, 'opening a notification stream failed');
        res.end(sseEvent('error', { detail: 'Internal server error' }));
      }
    },
  );
}
