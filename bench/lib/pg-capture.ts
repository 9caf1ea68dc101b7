import pg from 'pg';
import type { Loupe } from '../../src/server.js';

interface Captured {
  text: string;
  values: unknown[];
}

type QueryFn = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Runs `work` with every pg Client query of this process recorded (Loupe's pools and graphile-worker's alike:
 * they share the pg module), then EXPLAIN (ANALYZE, BUFFERS) each distinct read-only statement seen on Loupe's
 * pool, with its parameters. Writes (and graphile-worker's own polling) are listed as not explained.
 */
export async function explainDuring(loupe: Loupe, label: string, work: () => Promise<unknown>): Promise<string[]> {
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  const seen: Captured[] = [];
  proto.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
    const c = config as { text?: unknown; values?: unknown } | string | null;
    const text = typeof c === 'string' ? c : c?.text;
    const vals = typeof c === 'string' ? values : (c?.values ?? values);
    if (typeof text === 'string') seen.push({ text, values: Array.isArray(vals) ? [...(vals as unknown[])] : [] });
    return original.call(this, config, values, callback);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  const out = [`### ${label}`, ''];
  const done = new Set<string>();
  for (const q of seen) {
    const flat = q.text.replace(/\s+/g, ' ').trim();
    if (done.has(flat) || /graphile_worker|^(begin|commit|rollback|set |select pg_notify|listen)/i.test(flat)) continue;
    done.add(flat);
    if (!/^(select|with)\b/i.test(flat) || /\b(insert|update|delete)\b|for update|for share/i.test(flat)) {
      out.push('```sql', flat, '```', '(not explained: not a plain read)', '');
      continue;
    }
    try {
      const plan = await loupe.container.database.pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.text}`, q.values);
      out.push('```sql', flat, `-- parameters: ${JSON.stringify(q.values).slice(0, 500)}`, '```', '```', ...plan.rows.map((r) => r['QUERY PLAN']), '```', '');
    } catch (err) {
      out.push('```sql', flat, '```', `(explain failed: ${err instanceof Error ? err.message : String(err)})`, '');
    }
  }
  return out;
}
