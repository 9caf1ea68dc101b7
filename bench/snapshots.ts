import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../src/adapters/db/database.js';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type ForkKind, VersionsRepo } from '../src/modules/versions/versions.repo.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { type BenchReport, type Goal, fixed, median } from './lib/report.js';
import { seedIndexedDataset } from './lib/seed-media.js';

const GOAL_MS = 50;
const GOAL_FORK_ROWS_PER_S = 1_000_000;
const REPEATS = 5;

function sizesFromEnv(): number[] {
  const raw = process.env.BENCH_SNAPSHOT_SIZES?.trim() || '1000,100000,1000000';
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SNAPSHOT_SIZES must be comma-separated positive integers (got "${raw}")`);
  return sizes;
}

interface Timed {
  /** Request sent to response read (ms). */
  request: number;
  /** Request sent to the task COMPLETED and the dataset READY (ms), for the asynchronous ones. */
  done?: number;
  /** The task's own run: markRunning to commit (tasks.end_time - the RUNNING mark), for the asynchronous ones. */
  commit?: number;
}

/** Snapshot create, restore and clone latency at 1k, 100k and 1M media, and the fork that the first change after a snapshot makes. */
export async function snapshots(): Promise<BenchReport> {
  const sizes = sizesFromEnv();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  const rows: string[][] = [];
  const goals: Goal[] = [];
  try {
    loupe = await startLoupe(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' }));
    const { db } = loupe.container.database;
    const issued = await loupe.container.services.auth.createUser('bench-snapshots@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const call = async (method: string, route: string, body?: unknown) => {
      const start = performance.now();
      const res = await fetch(`${loupe!.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      const elapsed = performance.now() - start;
      if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
      return { elapsed, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    };
    const waitTask = async (datasetId: string, type: string, start: number): Promise<Timed['done']> => {
      for (;;) {
        const { rows: found } = await sql<{ status: string; dataset_status: string }>`
          select t.status, d.status_new as dataset_status from tasks t join datasets d on d.id = t.dataset_id
          where t.dataset_id = ${datasetId}::uuid and t.task_type = ${type} order by t.start_time desc limit 1`.execute(db);
        const task = found[0];
        if (task?.status === 'COMPLETED' && task.dataset_status === 'READY') return performance.now() - start;
        if (task && ['FAILED', 'ABORTED'].includes(task.status)) throw new Error(`${type} ended ${task.status}`);
        await sleep(2);
      }
    };
    const runTime = async (datasetId: string, type: string) => {
      const { rows: found } = await sql<{ ms: number }>`
        select extract(epoch from (end_time - start_time)) * 1000 as ms from tasks
        where dataset_id = ${datasetId}::uuid and task_type = ${type} order by start_time desc limit 1`.execute(db);
      return Number(found[0]!.ms);
    };

    const results: Array<{ n: number; create: number[]; restore: Timed[]; clone: Timed[]; fork: number[]; fullFork: number[]; seedS: number }> = [];
    for (const n of sizes) {
      const seedStart = performance.now();
      const datasetId = await seedIndexedDataset(loupe, issued.user_id, `bench-snapshots-${n}`, n);
      const seedS = (performance.now() - seedStart) / 1000;
      const base = `/api/v1/dataset/${datasetId}/snapshot`;
      const first = (JSON.parse(await (await fetch(`${loupe.url}${base}`, { headers: { authorization: `Bearer ${token}` } })).text()) as Array<{ snapshot_id: string }>)[0]!;

      const create: number[] = [];
      const restore: Timed[] = [];
      const clone: Timed[] = [];
      const fork: number[] = [];
      const fullFork: number[] = [];
      for (let i = 0; i < REPEATS; i++) {
        create.push((await call('POST', base, { name: `bench ${i}` })).elapsed);

        const restoreStart = performance.now();
        const r = await call('POST', `${base}/${first.snapshot_id}/restore`);
        restore.push({ request: r.elapsed, done: await waitTask(datasetId, 'SNAPSHOT_RESTORE', restoreStart), commit: await runTime(datasetId, 'SNAPSHOT_RESTORE') });

        const cloneStart = performance.now();
        const c = await call('POST', `${base}/${first.snapshot_id}/clone`);
        const { rows: made } = await sql<{ id: string }>`select id from datasets where source_dataset_id = ${datasetId}::uuid order by created_at desc limit 1`.execute(db);
        clone.push({ request: c.elapsed, done: await waitTask(made[0]!.id, 'SNAPSHOT_CLONE', cloneStart), commit: await runTime(made[0]!.id, 'SNAPSHOT_CLONE') });

        fork.push(await timeFork(db, datasetId, 'delta'));
        if (i < 2) fullFork.push(await timeFork(db, datasetId, 'full'));
      }
      results.push({ n, create, restore, clone, fork, fullFork, seedS });
      process.stderr.write(`  snapshots at ${n} media done\n`);
    }

    for (const r of results) {
      const forkMs = median(r.fork);
      rows.push([
        String(r.n),
        fixed(median(r.create), 1),
        fixed(median(r.restore.map((t) => t.request)), 1),
        fixed(median(r.restore.map((t) => t.commit!)), 1),
        fixed(median(r.restore.map((t) => t.done!)), 1),
        fixed(median(r.clone.map((t) => t.request)), 1),
        fixed(median(r.clone.map((t) => t.commit!)), 1),
        fixed(median(r.clone.map((t) => t.done!)), 1),
        fixed(forkMs, 1),
        fixed(r.n / (forkMs / 1000) / 1e6, 2),
        fixed(Math.min(...r.fullFork), 1),
      ]);
    }
    const largest = results[results.length - 1]!;
    const smallest = results[0]!;
    const worst = (r: (typeof results)[number]) => Math.max(median(r.create), median(r.restore.map((t) => t.request)), median(r.clone.map((t) => t.request)));
    goals.push({
      description: `create, restore and clone requests each < ${GOAL_MS} ms at ${largest.n} media (median of ${REPEATS})`,
      actual: `worst ${fixed(worst(largest), 1)} ms`,
      pass: worst(largest) < GOAL_MS,
    });
    goals.push({
      description: `flat from ${smallest.n} to ${largest.n} media: worst median at the largest within 2x of the smallest (or both < 10 ms)`,
      actual: `${fixed(worst(smallest), 1)} -> ${fixed(worst(largest), 1)} ms`,
      pass: worst(largest) < Math.max(2 * worst(smallest), 10),
    });
    const forkRate = largest.n / (median(largest.fork) / 1000);
    goals.push({
      description: `the fork after a snapshot (delta) >= ${GOAL_FORK_ROWS_PER_S / 1e6}M media rows/s at ${largest.n} media`,
      actual: `${fixed(forkRate / 1e6, 2)}M rows/s`,
      pass: forkRate >= GOAL_FORK_ROWS_PER_S,
    });
    return {
      title: `Snapshots: create, restore and clone at ${sizes.join(', ')} media; the fork of the first change after a snapshot`,
      notes: [
        'Each size: one READY dataset seeded straight into the database (media rows, a head version with a full index row per media:',
        '  five cluster levels, scores; its creation snapshot), then, through the HTTP API of one Loupe in this process (embedded PostgreSQL,',
        `  role all), ${REPEATS} rounds of: POST snapshot; POST restore of the creation snapshot; POST clone of it; then the fork the next change`,
        '  makes (VersionsRepo.fork in one transaction, timed directly): "fork" = delta, as a media batch or an edit forks (a new version over',
        '  the sealed head, no rows copied; "M rows/s" = the rows it makes available / its time); "full copy" = every row copied, as a reindex',
        '  forks (best of 2). Medians unless said.',
        'request = sent to answered. task = the task row from its start to its end (job pickup, RUNNING, the commit transaction).',
        'until READY = request sent to task COMPLETED and dataset READY seen (polled every 2 ms).',
        `Seeding took ${results.map((r) => `${fixed(r.seedS, 1)} s (${r.n})`).join(', ')}, untimed.`,
      ],
      columns: [
        'media',
        'create ms',
        'restore req ms',
        'restore task ms',
        'restore until READY ms',
        'clone req ms',
        'clone task ms',
        'clone until READY ms',
        'fork ms',
        'fork M rows/s',
        'full copy ms',
      ],
      rows,
      goals,
    };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The first change after a snapshot forks the sealed head into a new version: `delta` (a media batch,
 * an edit: only what changes is written) or `full` (a reindex rewrites every row); timed, then dropped.
 */
async function timeFork(db: Db, datasetId: string, kind: ForkKind): Promise<number> {
  const versions = new VersionsRepo(db);
  const start = performance.now();
  const versionId = await db.transaction().execute((trx) => versions.fork(trx, datasetId, null, kind));
  const elapsed = performance.now() - start;
  await db.deleteFrom('version_rows').where('version_id', '=', versionId).execute();
  await db.deleteFrom('versions').where('id', '=', versionId).execute();
  return elapsed;
}
