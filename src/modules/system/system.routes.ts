import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { errorResponses } from '../../http/schemas.js';

export function systemRoutes(app: FastifyInstance, deps: { checkDatabase: () => Promise<void> }): void {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Liveness: the process answers', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
      },
    },
    async (request) => {
      try {
        await deps.checkDatabase();
        return { status: 'ready' as const };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw errors.notReady('Database unreachable');
      }
    },
  );
}
