import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import type { TaskListQuery } from '../src/modules/tasks/tasks.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { startBareServer } from './lib/bare.js';
import { explainTaskList } from './lib/explain.js';
import { type LoadStats, loadSettingsFromEnv, measure, probe } from './lib/load.js';
import { intFromEnv } from './lib/env.js';
import { type BenchReport, fixed, ms } from './lib/report.js';
import { seedTasks } from './lib/seed.js';

const DATASETS = 20;
const PAGE_SIZE = 50;
const GOAL_P99_MS = 20;
const GOAL_VS_BARE = 0.4;

interface Case {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The TasksRepo query behind the case, for BENCH_EXPLAIN=1. */
  query?: TaskListQuery;
}

/** API overhead of GET /api/v1/tasks over BENCH_TASKS tasks (default 100k; the scale goal is 1M), against a bare Fastify route of the same size. */
export async function taskList(): Promise<BenchReport> {
  const settings = loadSettingsFromEnv();
  const TASKS = intFromEnv('BENCH_TASKS', 100_000);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  let bare: Awaited<ReturnType<typeof startBareServer>> | null = null;
  try {
    const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WORKER_CONCURRENCY: '1' };
    loupe = await startLoupe(loadConfig(env, { role: 'api' }), { jobs: [] });
    const started = Date.now();
    const seeded = await seedTasks(loupe, { datasets: DATASETS, tasks: TASKS });
    const seedSeconds = (Date.now() - started) / 1000;
    const token = await signClientToken(seeded.apiKey, seeded.apiSecret, 3600);
    bare = await startBareServer(PAGE_SIZE);

    const auth = { authorization: `Bearer ${token}` };
    const cases: Case[] = [
      { name: 'bare Fastify route (baseline)', url: bare.url, headers: {} },
      {
        name: `GET /api/v1/tasks?page_size=${PAGE_SIZE}`,
        url: `${loupe.url}/api/v1/tasks?page_size=${PAGE_SIZE}`,
        headers: auth,
        query: { page_size: PAGE_SIZE },
      },
      {
        name: 'GET /api/v1/tasks  RUNNING, by dataset_name asc',
        url: `${loupe.url}/api/v1/tasks?page_size=${PAGE_SIZE}&task_status=RUNNING&sort_by=dataset_name&sort_order=asc`,
        headers: auth,
        query: { page_size: PAGE_SIZE, task_status: 'RUNNING', sort_by: 'dataset_name', sort_order: 'asc' },
      },
    ];

    const sizes: string[] = [];
    for (const c of cases) {
      const p = await probe(c.url, c.headers);
      if (p.status !== 200) throw new Error(`${c.name} answered ${p.status}: ${p.body.slice(0, 300)}`);
      const page = JSON.parse(p.body) as { tasks?: unknown[]; total?: number };
      sizes.push(`${c.name}: ${p.bytes} bytes, ${page.tasks?.length ?? '?'} tasks${page.total === undefined ? '' : ` of ${page.total}`}`);
    }

    const explains: string[] = [];
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const c of cases) {
        if (c.query) explains.push(`EXPLAIN ANALYZE for ${c.name}:`, ...(await explainTaskList(loupe, seeded.userId, c.query)));
      }
    }

    const results: LoadStats[] = [];
    for (const c of cases) results.push(await measure(c.url, c.headers, settings));
    const bareRps = results[0]!.reqPerSec;

    const rows = cases.map((c, i) => {
      const s = results[i]!;
      return [
        c.name,
        fixed(s.reqPerSec, 0),
        ms(s.p50Ms),
        ms(s.p99Ms),
        String(s.non2xx),
        String(s.errors),
        i === 0 ? '100%' : `${fixed((100 * s.reqPerSec) / bareRps, 1)}%`,
      ];
    });

    const goals = cases.slice(1).flatMap((c, i) => {
      const s = results[i + 1]!;
      return [
        { description: `${c.name}: p99 < ${GOAL_P99_MS} ms`, actual: `${ms(s.p99Ms)} ms`, pass: s.p99Ms < GOAL_P99_MS && s.non2xx === 0 },
        {
          description: `${c.name}: >= ${GOAL_VS_BARE * 100}% of bare throughput`,
          actual: `${fixed((100 * s.reqPerSec) / bareRps, 1)}%`,
          pass: s.reqPerSec >= GOAL_VS_BARE * bareRps && s.non2xx === 0,
        },
      ];
    });

    return {
      title: 'Task list API overhead (GET /api/v1/tasks)',
      notes: [
        `Data: ${seeded.taskCount} tasks over ${DATASETS} datasets, one user (owner of all), seeded by SQL in ${fixed(seedSeconds, 1)} s, then ANALYZE.`,
        'Loupe: startLoupe(role api, jobs []), embedded PostgreSQL, pino silent; each request carries a client-signed HS256 JWT.',
        `Baseline: bare Fastify 5 in the same process, one GET route sending a precomputed ${bare.bytes}-byte JSON string`,
        `  (a fake page of ${PAGE_SIZE} tasks) as-is: no auth, no schema, no database.`,
        `Load: autocannon, ${settings.connections} connections, ${settings.warmupS} s warm-up (discarded) + ${settings.durationS} s measured per case,`,
        `  ${settings.workers > 0 ? `generator in ${settings.workers} worker thread(s)` : 'generator on the server event loop'}; req/s is the mean of per-second samples.`,
        'Latency resolution is 1 ms (autocannon records whole milliseconds); "<1" means under a millisecond.',
        ...sizes.map((s) => `Response: ${s}`),
      ],
      details: explains,
      columns: ['case', 'req/s (mean)', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'throughput vs bare'],
      rows,
      goals,
    };
  } finally {
    await bare?.app.close();
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
