import { createHash } from 'node:crypto';
import type { Compilable } from 'kysely';
import type pg from 'pg';

/**
 * Runs a hot read query as a named prepared statement, so each connection plans it once instead of
 * on every request (planning cost as much as executing for the task list). Only for statements whose
 * SQL text comes from a bounded set of shapes: each distinct text is prepared once per connection.
 */
export async function queryPrepared<R>(pool: pg.Pool, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  const name = `k${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 20)}`;
  const result = await pool.query({ name, text: compiled.sql, values: [...compiled.parameters] });
  return result.rows as R[];
}
