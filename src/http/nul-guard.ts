import type { FastifyInstance } from 'fastify';
import { errors } from '../core/errors.js';
import { nulPath } from '../core/nul-strings.js';

/**
 * Every route's path parameters, query and parsed JSON or urlencoded body are refused with a 400 naming the field
 * when a string in them holds a NUL byte (multipart fields are checked as readForm reads them). preValidation: after
 * parsing, before the schema coerces anything and before any handler or public route reaches the database.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const value of [request.params, request.query, request.body]) {
      const path = nulPath(value, '');
      if (path !== undefined) throw errors.nulInField(path || 'body');
    }
  });
}
