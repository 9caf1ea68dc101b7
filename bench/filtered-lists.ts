import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { intFromEnv } from './lib/env.js';
import { type BenchReport, fixed } from './lib/report.js';
import { seedIndexedDataset } from './lib/seed-media.js';

const GOAL_FILTERED_MS = 500;
const GOAL_LIST_MS = 100;

interface Case {
  name: string;
  route: string;
  goalMs: number;
}

const vql = (filters: unknown[]) => `vql=${encodeURIComponent(JSON.stringify(filters))}`;

/**
 * Filtered Explore pages and every list (media, datasets, views with counts, notifications, snapshots) over one
 * indexed dataset of BENCH_LISTS_MEDIA media (default 100,000), read through HTTP one request at a time; p95 of
 * BENCH_LISTS_REPEATS requests (default 20) after two warm-ups. 1% of the media have a caption, 10% a tag, every media two custom fields, 2% a
 * duplicate group, 5% are outliers. BENCH_EXPLAIN=1 adds EXPLAIN ANALYZE of every statement each case runs.
 */
export async function filteredLists(): Promise<BenchReport> {
  const n = intFromEnv('BENCH_LISTS_MEDIA', 100_000);
  const REPEATS = intFromEnv('BENCH_LISTS_REPEATS', 20);
  const WARMUP = 2;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  try {
    const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WORKER_CONCURRENCY: '1' };
    loupe = await startLoupe(loadConfig(env, { role: 'api' }), { jobs: [] });
    const started = Date.now();
    const issued = await loupe.container.services.auth.createUser('bench@example.com');
    const datasetId = await seedIndexedDataset(loupe, issued.user_id, 'bench-lists', n);
    await annotate(loupe, datasetId, issued.user_id);
    const seedSeconds = (Date.now() - started) / 1000;
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const headers = { authorization: `Bearer ${token}` };
    for (const [name, query] of [['Outliers', vql([{ issues: { op: 'issue', value: 'outliers', mode: 'in' } }])], ['Cats', vql([{ text: { op: 'fts', value: 'cat' } }])]]) {
      const body = new FormData();
      body.append('name', name!);
      const res = await fetch(`${loupe.url}/api/v1/dataset/${datasetId}/views?${query}`, { method: 'POST', headers, body });
      if (res.status !== 201 && res.status !== 200) throw new Error(`view ${name}: ${res.status} ${await res.text()}`);
    }

    const explore = (q: string) => `/api/v1/explore/${datasetId}?${q}`;
    const cases: Case[] = [
      { name: 'explore: outliers', route: explore(vql([{ issues: { op: 'issue', value: 'outliers', mode: 'in' } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: duplicates', route: explore(vql([{ issues: { op: 'issue', value: 'duplicates', mode: 'in' } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: blur', route: explore(vql([{ issues: { op: 'issue', value: 'blur', mode: 'in' } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: uniqueness >= 0.99', route: explore(vql([{ uniqueness: { op: 'uniqueness', value: 0.99 } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: fts matching nothing', route: explore(vql([{ text: { op: 'fts', value: 'zebra' } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: fts caption (1%)', route: explore(vql([{ text: { op: 'fts', value: 'cat' } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: tags (10%)', route: explore(vql([{ tags: { op: 'is', value: ['reviewed'] } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: labels (10%)', route: explore(vql([{ labels: { op: 'one_of', value: ['dog'] } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'explore: custom field eq (1%)', route: explore(vql([{ custom: { op: 'eq', field: 'bucket', value: 7 } }])), goalMs: GOAL_FILTERED_MS },
      { name: 'media list, first page', route: `/api/v1/dataset/${datasetId}/media?limit=50&offset=0`, goalMs: GOAL_LIST_MS },
      { name: 'media list, middle page', route: `/api/v1/dataset/${datasetId}/media?limit=50&offset=${Math.floor(n / 2)}`, goalMs: GOAL_LIST_MS },
      { name: 'datasets list', route: '/api/v1/datasets', goalMs: GOAL_LIST_MS },
      { name: 'views list (with counts)', route: `/api/v1/dataset/${datasetId}/views`, goalMs: GOAL_LIST_MS },
      { name: 'notifications', route: '/api/v1/notifications?limit=50&offset=500', goalMs: GOAL_LIST_MS },
      { name: 'snapshots list', route: `/api/v1/dataset/${datasetId}/snapshot`, goalMs: GOAL_LIST_MS },
    ];

    const rows: string[][] = [];
    const goals = [];
    const explains: string[] = [];
    for (const c of cases) {
      const times: number[] = [];
      let last = { status: 0, text: '' };
      for (let i = 0; i < WARMUP + REPEATS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${loupe.url}${c.route}`, { headers });
        last = { status: res.status, text: await res.text() };
        if (i >= WARMUP) times.push(performance.now() - t0);
      }
      if (last.status !== 200) throw new Error(`${c.name}: ${last.status} ${last.text.slice(0, 300)}`);
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length / 2)]!;
      const p95 = times[Math.ceil(times.length * 0.95) - 1]!;
      rows.push([c.name, fixed(p50, 1), fixed(p95, 1), fixed(times[times.length - 1]!, 1), summary(last.text)]);
      goals.push({ description: `${c.name}: p95 < ${c.goalMs} ms`, actual: `${fixed(p95, 1)} ms`, pass: p95 < c.goalMs });
      if (process.env.BENCH_EXPLAIN === '1') explains.push(`### ${c.name}`, ...(await explainRequest(loupe, `${loupe.url}${c.route}`, headers)));
    }
    return {
      title: `Filtered Explore and lists (${n} media)`,
      notes: [
        `Data: one indexed dataset of ${n} media seeded by SQL, annotated, 1,000 notifications, 2 views; seeded in ${fixed(seedSeconds, 1)} s.`,
        `Each case: ${WARMUP} warm-up + ${REPEATS} sequential requests through HTTP; ms.`,
      ],
      details: explains,
      columns: ['case', 'p50', 'p95', 'max', 'answer'],
      rows,
      goals,
    };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Captions, tags, labels, custom fields, duplicate groups and notifications, straight into the tables. */
async function annotate(loupe: Loupe, datasetId: string, userId: string): Promise<void> {
  const { db } = loupe.container.database;
  const { head_version_id: head } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
  await sql`update version_rows set caption = case when ordinal % 100 = 0 then 'a cat on a mat' else caption end,
      duplicate_group = case when ordinal % 50 < 2 then md5('d' || (ordinal / 50))::uuid end
    where version_id = ${head}::uuid and (ordinal % 100 = 0 or ordinal % 50 < 2)`.execute(db);
  await sql`insert into annotation_rows (version_id, media_id, tags, label)
    select version_id, media_id, '{reviewed}', 'dog' from version_rows where version_id = ${head}::uuid and ordinal % 10 = 3`.execute(db);
  await sql`insert into field_rows (version_id, media_id, custom_fields)
    select version_id, media_id, jsonb_build_object('bucket', ordinal % 100, 'split', case when ordinal % 5 = 0 then 'val' else 'train' end)
    from version_rows where version_id = ${head}::uuid`.execute(db);
  await sql`update versions set field_types = '{"bucket": "number", "split": "string"}' where id = ${head}::uuid`.execute(db);
  await sql`insert into notifications (user_id, dataset_id, entity_type, entity_id, batch_id, title, message, metadata)
    select ${userId}::uuid, ${datasetId}::uuid, 'saved_view', ${datasetId}, b, 'n' || g, 'm',
      jsonb_build_object('batch_id', b, 'is_alert', true, 'view_name', 'v', 'dataset_name', 'bench-lists', 'result_count', g)
    from (select g, gen_random_uuid() as b from generate_series(1, 1000) g) s`.execute(db);
  await sql`vacuum analyze version_rows, annotation_rows, field_rows, notifications`.execute(db);
}

function summary(text: string): string {
  const body = JSON.parse(text) as Record<string, unknown>;
  for (const key of ['clusters', 'media', 'datasets', 'views', 'notifications', 'snapshots']) {
    const list = body[key];
    if (Array.isArray(list)) return `${list.length} ${key}${typeof body.total_clusters === 'number' ? ` of ${body.total_clusters}` : ''}`;
  }
  return Array.isArray(body) ? `${body.length} items` : Object.keys(body).join(',');
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement that one request sends to PostgreSQL but its auth look-ups. */
async function explainRequest(loupe: Loupe, url: string, headers: Record<string, string>): Promise<string[]> {
  const captured: Array<{ text: string; values: unknown[] }> = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === 'string' ? config : config.text;
    if (text) captured.push({ text, values: (typeof config === 'string' ? values : (config.values ?? values)) ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await (await fetch(url, { headers })).text();
  } finally {
    pg.Client.prototype.query = original;
  }
  const out: string[] = [];
  for (const q of captured.filter((c) => /^\s*(with|select)/i.test(c.text) && !/api_keys|sessions|from "users"/.test(c.text))) {
    const plan = await loupe.container.database.pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.text}`, q.values);
    out.push('```', `-- ${q.text.replace(/\s+/g, ' ')}`, `-- parameters: ${JSON.stringify(q.values).slice(0, 400)}`, ...plan.rows.map((r) => r['QUERY PLAN']), '```', '');
  }
  return out;
}
