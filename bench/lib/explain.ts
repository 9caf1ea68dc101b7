import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import type { Database } from '../../src/adapters/db/schema.js';
import { TaskListRepo } from '../../src/modules/tasks/task-list.repo.js';
import type { TaskListQuery } from '../../src/modules/tasks/tasks.service.js';
import type { Loupe } from '../../src/server.js';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of exactly the SQL that TasksRepo.list generates for `query`: the repo is
 * run once against a logging Kysely on Loupe's own pool, and each captured statement is explained.
 */
export async function explainTaskList(loupe: Loupe, userId: string, query: TaskListQuery): Promise<string[]> {
  const { pool } = loupe.container.database;
  const captured: Pick<CompiledQuery, 'sql' | 'parameters'>[] = [];
  // Not destroyed on purpose: destroy() would end Loupe's pool, which this instance shares.
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  const pageSize = query.page_size ?? 20;
  // The list runs its page query as a prepared statement straight on the pool: capture those too.
  const capturing = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (config: { text: string; values: unknown[] }) => {
        captured.push({ sql: config.text, parameters: config.values });
        return target.query(config);
      };
    },
  });
  await new TaskListRepo(db, capturing).list(
    userId,
    query,
    { by: query.sort_by ?? 'start_time', order: query.sort_order ?? 'desc' },
    { limit: pageSize, offset: ((query.page ?? 1) - 1) * pageSize },
  );

  const out: string[] = [];
  for (const q of captured) {
    const plan = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]);
    out.push(`-- ${q.sql.replace(/\s+/g, ' ')}`);
    out.push(`-- parameters: ${JSON.stringify(q.parameters)}`);
    out.push(...plan.rows.map((r) => r['QUERY PLAN']), '');
  }
  return out;
}
