import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.js';

/** The one place errors become HTTP: `{"detail": "..."}` with the status the spec names. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) return reply.code(err.status).headers(err.headers).send({ detail: err.detail });
    if ('validation' in err && err.validation) {
      const params = err.validation[0]?.params;
      const allowed = params?.allowedValues;
      const extra = params?.additionalProperty;
      const detail = Array.isArray(allowed) ? `${err.message}: ${allowed.join(', ')}` : typeof extra === 'string' ? `${err.message}: '${extra}'` : err.message;
      return reply.code(422).send({ detail });
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.code(500).send({ detail: 'Internal server error' });
    }
    return reply.code(status).send({ detail: err.message });
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `Route ${request.method} ${request.url.split('?')[0]} not found` }));
}
