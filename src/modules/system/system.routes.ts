import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { errorResponses } from '../../http/schemas.js';

/** How one garbage sweep has fared since this process started. */
export interface SweepStatus {
  runs: number;
  failures: number;
  last_error_at: string | null;
}

const SweepStatusSchema = Type.Object({
  runs: Type.Integer(),
  failures: Type.Integer(),
  last_error_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export function systemRoutes(app: FastifyInstance, deps: { checkDatabase: () => Promise<void>; sweeps?: () => Record<string, SweepStatus> }): void {
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
        summary: 'Readiness: the database answers; where this process runs the garbage sweeps, how each has fared (a failing sweep does not make it unready)',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), sweeps: Type.Optional(Type.Record(Type.String(), SweepStatusSchema)) }),
          ...errorResponses(503),
        },
      },
    },
    async (request) => {
      try {
        await deps.checkDatabase();
        return { status: 'ready' as const, ...(deps.sweeps ? { sweeps: deps.sweeps() } : {}) };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw errors.notReady('Database unreachable');
      }
    },
  );
}
