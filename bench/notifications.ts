import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/adapters/db/database.js';
import { type NewNotification, NotificationsRepo } from '../src/modules/notifications/notifications.repo.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';
import { type ServerChild, benchUser, openSideDatabase, startServerChild } from './lib/server-child.js';
import { SseClients } from './lib/sse-clients.js';

const STREAMS_PER_USER = 5;
const ALERTS = 100;
const USERS_PER_ALERT = 10;
const ALERT_GAP_MS = 20;
const IDLE_WINDOW_S = 20;
/** Backends report their counters up to 10 s after going idle: wait that out before a window. */
const STATS_SETTLE_S = 12;
const GOAL_P99_MS = 200;
const GOAL_RSS_MB = 500;

function streamsFromEnv(): number {
  const raw = process.env.BENCH_STREAMS?.trim() || '5000';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < STREAMS_PER_USER * USERS_PER_ALERT) throw new Error(`BENCH_STREAMS must be an integer >= ${STREAMS_PER_USER * USERS_PER_ALERT} (got "${raw}")`);
  return n;
}

/** Resident set size of the server after a full collection, from /proc (Linux). */
async function rssMb(server: ServerChild): Promise<number> {
  server.gc();
  await sleep(1_000);
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Transactions per second the database committed over a window in which the bench itself sends nothing. */
async function idleTxPerSecond(db: DatabaseHandle['db']): Promise<number> {
  await sleep(STATS_SETTLE_S * 1000);
  const read = async () => (await sql<{ n: number }>`select (xact_commit + xact_rollback)::int8 as n from pg_stat_database where datname = current_database()`.execute(db)).rows[0]!.n;
  const before = await read();
  await sleep(IDLE_WINDOW_S * 1000);
  // Minus the first read's own transaction.
  return (await read() - before - 1) / IDLE_WINDOW_S;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/**
 * 5,000 concurrent notification streams on one API process, 100 alerts fanned out to them through
 * LISTEN/NOTIFY: delivery latency, the server's memory per stream, and the database load while idle.
 */
export async function notifications(): Promise<BenchReport> {
  const streams = streamsFromEnv();
  const userCount = Math.ceil(streams / STREAMS_PER_USER);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let server: ServerChild | null = null;
  let side: DatabaseHandle | null = null;
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  let load: SseClients | null = null;
  try {
    server = await startServerChild({ LOUPE_ROLE: 'api', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    // The bench plays the worker: it shares the server's embedded database the way the CLI does.
    side = await openSideDatabase(dataDir);
    const users: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < userCount; i++) users.push(await benchUser(side, dataDir, `bench-stream-${i}@example.com`));
    const { id: datasetId } = await side.db
      .insertInto('datasets')
      .values({ display_name: 'bench-notifications', owner_id: users[0]!.id, status_new: 'READY', fatal_error_msg: null, source_dataset_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();

    load = new SseClients(server.url, (data, at) => {
      const t0 = sent.get(data.entity_id);
      if (t0 !== undefined) latencies.push(at - t0);
    });
    const tx0 = await idleTxPerSecond(side.db);
    // Read after the idle window: right after start the heap still holds startup's garbage pages.
    const rssIdle = await rssMb(server);

    const small = users.slice(0, Math.min(20, userCount)).flatMap((u) => Array(STREAMS_PER_USER).fill(u.token) as string[]);
    await load.open(small, 50);
    const tx100 = await idleTxPerSecond(side.db);
    const rssSmall = await rssMb(server);

    const openStart = performance.now();
    const rest = users.slice(small.length / STREAMS_PER_USER).flatMap((u) => Array(STREAMS_PER_USER).fill(u.token) as string[]);
    await load.open(rest.slice(0, streams - small.length), 200);
    const openS = (performance.now() - openStart) / 1000;
    await sleep(5_000);
    const rssFull = await rssMb(server);
    const txFull = await idleTxPerSecond(side.db);

    const repo = new NotificationsRepo(side.db);
    const streamsOf = new Map<string, number>();
    for (let a = 0; a < ALERTS; a++) {
      const viewId = randomUUID();
      const batchId = randomUUID();
      const rows: NewNotification[] = Array.from({ length: USERS_PER_ALERT }, (_, k) => {
        const user = users[(a * USERS_PER_ALERT + k) % userCount]!;
        return {
          user_id: user.id,
          dataset_id: datasetId,
          entity_type: 'saved_view',
          entity_id: viewId,
          batch_id: batchId,
          title: `New results in "bench ${a}"`,
          message: `3 new media in bench-notifications match the saved view "bench ${a}"`,
          metadata: { batch_id: batchId, is_alert: true, view_name: `bench ${a}`, dataset_name: 'bench-notifications', result_count: 3 },
        };
      });
      streamsOf.set(viewId, USERS_PER_ALERT * STREAMS_PER_USER);
      sent.set(viewId, performance.now());
      await side.db.transaction().execute((trx) => repo.insert(trx, rows));
      await sleep(ALERT_GAP_MS);
    }
    const expected = [...streamsOf.values()].reduce((a, b) => a + b, 0);
    const deadline = Date.now() + 30_000;
    while (latencies.length < expected && Date.now() < deadline) await sleep(100);

    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    // The marginal cost from the small to the full set: the 0-stream reading still carries startup's heap.
    const perStreamKb = ((rssFull - rssSmall) * 1024) / (load.size - small.length);
    const goals: Goal[] = [
      { description: `delivery p99 < ${GOAL_P99_MS} ms (all ${expected} deliveries arrived)`, actual: `${fixed(p99, 1)} ms, ${latencies.length}/${expected} arrived`, pass: p99 < GOAL_P99_MS && latencies.length === expected },
      { description: `${streams} streams < ${GOAL_RSS_MB} MB server RSS`, actual: `${fixed(rssFull, 0)} MB (${fixed(perStreamKb, 1)} KB a stream)`, pass: rssFull < GOAL_RSS_MB },
      {
        description: 'idle database load independent of the number of streams (within 0.2 tx/s from 100 to all streams)',
        actual: `${fixed(tx100, 2)} -> ${fixed(txFull, 2)} tx/s`,
        pass: Math.abs(txFull - tx100) <= 0.2,
      },
      { description: 'every data line is JSON', actual: `${load.badDataLines} bad of ${load.pings + latencies.length}`, pass: load.badDataLines === 0 },
    ];
    return {
      title: `Notification streams: ${streams} concurrent streams on one API process, ${ALERTS} alerts`,
      notes: [
        `One Loupe process in the api role (its own process, embedded PostgreSQL) and, in this process, a load generator: ${userCount} users`,
        `  x ${STREAMS_PER_USER} streams (raw HTTP on loopback, at most 200 connecting at once), each data line parsed as JSON.`,
        `Alerts: ${ALERTS} transactions ${ALERT_GAP_MS} ms apart, each as the worker's alert evaluation writes them (advisory lock, ${USERS_PER_ALERT}`,
        `  notifications, NOTIFY): ${USERS_PER_ALERT * STREAMS_PER_USER} streams each. Latency = insert transaction started to the event parsed by the client.`,
        `RSS from /proc/<server pid>/status after a full GC; idle load = (xact_commit + xact_rollback) delta of the database over ${IDLE_WINDOW_S} s with no request,`,
        `  after ${STATS_SETTLE_S} s for counters of earlier work to be reported.`,
        `Opening ${streams - small.length} streams took ${fixed(openS, 1)} s.`,
      ],
      columns: ['streams', 'server RSS MB', `RSS KB / stream (${small.length} -> all)`, 'idle DB tx/s', 'deliveries', 'p50 ms', 'p99 ms', 'max ms'],
      rows: [
        ['0', fixed(rssIdle, 0), '-', fixed(tx0, 2), '-', '-', '-', '-'],
        [String(small.length), fixed(rssSmall, 0), '-', fixed(tx100, 2), '-', '-', '-', '-'],
        [String(load.size), fixed(rssFull, 0), fixed(perStreamKb, 1), fixed(txFull, 2), `${latencies.length}/${expected}`, fixed(p50, 1), fixed(p99, 1), fixed(sorted[sorted.length - 1] ?? Number.NaN, 1)],
      ],
      goals,
    };
  } finally {
    load?.close();
    await side?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
