import { AsyncLocalStorage } from 'node:async_hooks';
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { lowerOtherThreads } from '../src/adapters/workers/priority.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { cpuMeter, readStat } from './lib/cpu.js';
import { intFromEnv } from './lib/env.js';
import { ingest } from './lib/ingest.js';
import { percentile } from './lib/latency.js';
import { type GeneratedFile, generateJpegs } from './lib/media-gen.js';
import { type BenchReport, fixed } from './lib/report.js';

const GOAL_TASKS_P99_MS = 100;

/** What the two load threads (uploaders, reader) are given, and what they answer. */
interface LoadJob {
  role: 'uploaders' | 'reader';
  base: string;
  token: string;
  durationMs: number;
  /** uploaders: each lane's files; reader: unused. */
  lanes: GeneratedFile[][];
  batch: number;
  /** reader: route name -> path. */
  routes: Record<string, string>;
  gapMs: number;
}

interface UploadResult {
  images: number;
  bytes: number;
  datasets: number;
  processed: number;
  /** Milliseconds of each batch POST, unsorted. */
  batchMs: number[];
  errors: string[];
}

interface ReadResult {
  times: Record<string, number[]>;
  /** The tasks requests: when each was sent and its body read, ms since the epoch (performance.timeOrigin based). */
  sent: Array<[number, number]>;
  failures: Record<string, number>;
  errors: string[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request with node:http on a keep-alive agent: the load shares the server's two cores, and fetch with a FormData
 * of file blobs cost the 20 uploaders 27 CPU-s in a 60-s run; a body built once and written whole costs 7.
 */
function call(base: string, token: string, method: string, route: string, body?: { type: string; bytes: Buffer }, extra: http.OutgoingHttpHeaders = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${token}`, ...extra };
    if (body) Object.assign(headers, { 'content-type': body.type, 'content-length': body.bytes.length });
    const req = http.request(`${base}${route}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body?.bytes);
  });
}

const BOUNDARY = 'loupe-bench-read-latency';
/** The reader's clock when it sent a request, so the server's side can split the wait in three. */
const SENT_HEADER = 'x-bench-sent';

/** A multipart/form-data body of `files` in the field "files". */
function multipartBody(files: GeneratedFile[]): { type: string; bytes: Buffer } {
  const parts = files.flatMap((f) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
    readFileSync(f.path),
    Buffer.from('\r\n'),
  ]);
  return { type: `multipart/form-data; boundary=${BOUNDARY}`, bytes: Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]) };
}

/** One uploader: dataset after dataset of its files (data_files, batches, process_files) until the time is up. */
async function uploadLane(job: LoadJob, lane: number, until: number, out: UploadResult): Promise<void> {
  const files = job.lanes[lane]!;
  const bodies = new Map<number, { type: string; bytes: Buffer }>();
  for (let round = 0; performance.now() < until; round++) {
    const created = await call(job.base, job.token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=read-latency-${lane}-${round}`);
    if (created.status !== 200) throw new Error(`new_dataset: ${created.status} ${created.text.slice(0, 200)}`);
    const id = (JSON.parse(created.text) as { dataset_id: string }).dataset_id;
    const opened = await call(job.base, job.token, 'GET', `/api/v1/ingestion/${id}/data_files`);
    if (opened.status !== 200) throw new Error(`data_files: ${opened.status} ${opened.text.slice(0, 200)}`);
    const trans = (JSON.parse(opened.text) as { trans_id: number }).trans_id;
    out.datasets++;
    let sent = 0;
    for (let i = 0; i < files.length && performance.now() < until; i += job.batch) {
      const part = files.slice(i, i + job.batch);
      if (!bodies.has(i)) bodies.set(i, multipartBody(part));
      const t = performance.now();
      const r = await call(job.base, job.token, 'POST', `/api/v1/ingestion/${id}/data_files/${trans}`, bodies.get(i));
      if (r.status !== 202) throw new Error(`upload batch: ${r.status} ${r.text.slice(0, 200)}`);
      out.batchMs.push(performance.now() - t);
      out.images += part.length;
      out.bytes += part.reduce((s, f) => s + f.bytes, 0);
      sent += part.length;
    }
    if (sent > 0) {
      const r = await call(job.base, job.token, 'POST', `/api/v1/ingestion/${id}/process_files/${trans}`);
      if (r.status !== 202) throw new Error(`process_files: ${r.status} ${r.text.slice(0, 200)}`);
      out.processed += sent;
    }
  }
}

/** Runs in a child process, so the load's own event loop work never delays the server's. */
export async function runLoad(job: LoadJob): Promise<UploadResult | ReadResult> {
  const until = performance.now() + job.durationMs;
  if (job.role === 'uploaders') {
    const out: UploadResult = { images: 0, bytes: 0, datasets: 0, processed: 0, batchMs: [], errors: [] };
    await Promise.all(job.lanes.map((_, lane) => uploadLane(job, lane, until, out).catch((err: unknown) => void out.errors.push(`${String(err)} ${String((err as { cause?: unknown }).cause)}`))));
    return out;
  }
  const out: ReadResult = { times: {}, sent: [], failures: {}, errors: [] };
  const names = Object.keys(job.routes);
  for (const n of names) [out.times[n], out.failures[n]] = [[], 0];
  for (let i = 0; performance.now() < until; i++) {
    const name = names[i % names.length]!;
    const t = performance.now();
    const sent = performance.timeOrigin + t;
    const r = await call(job.base, job.token, 'GET', job.routes[name]!, undefined, { [SENT_HEADER]: String(sent) }).catch((err: unknown) => ({ status: 0, text: String(err) }));
    out.times[name]!.push(performance.now() - t);
    if (job.routes[name] === '/api/v1/tasks') out.sent.push([sent, performance.timeOrigin + performance.now()]);
    if (r.status !== 200) {
      out.failures[name]!++;
      if (out.errors.length < 5) out.errors.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    if (job.gapMs > 0) await sleep(job.gapMs);
  }
  return out;
}

const LOAD_ENV = 'LOUPE_BENCH_READ_LATENCY_LOAD';

// A load process is given its job, says it is ready, then starts on 'go', so both start together.
if (process.env[LOAD_ENV] && process.send) {
  const send = process.send.bind(process);
  process.once('message', (job: LoadJob) => {
    process.once('message', () => {
      const started = performance.now();
      runLoad(job).then(
        (result) => send({ result, seconds: (performance.now() - started) / 1000, cpuSeconds: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 }),
        (err: unknown) => send({ error: String(err) }),
      );
    });
    send({ ready: true });
  });
}

interface LoadProcess<T> {
  go(): void;
  /** The process's result, how long its load ran and the CPU it used (its whole life), seconds. */
  done: Promise<{ result: T; seconds: number; cpuSeconds: number }>;
}

/**
 * Starts `job` in a child process of its own (this file through tsx), so the load's CPU is not the server's and the
 * kernel sees it as another program, as the uploaders of a real server are; resolves once it is ready to go.
 */
async function inProcess<T>(job: LoadJob): Promise<LoadProcess<T>> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, [LOAD_ENV]: '1' }, serialization: 'advanced' });
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const done = new Promise<{ result: T; seconds: number; cpuSeconds: number }>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean; result?: T; seconds?: number; cpuSeconds?: number; error?: string }) => {
      if (m.ready) return ready();
      child.kill();
      if (m.error) reject(new Error(m.error));
      else resolve({ result: m.result as T, seconds: m.seconds!, cpuSeconds: m.cpuSeconds! });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
  });
  child.send(job);
  await Promise.race([isReady, done]);
  return { go: () => child.send('go'), done };
}

/** The generated JPEGs, kept in the temp dir between runs (generating them takes about a minute on 2 busy cores). */
async function jpegs(count: number): Promise<GeneratedFile[]> {
  const dir = path.join(os.tmpdir(), `loupe-bench-read-latency-${count}`);
  await mkdir(dir, { recursive: true });
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jpg')).sort();
  if (names.length === count) {
    return Promise.all(names.map(async (name) => ({ name, path: path.join(dir, name), bytes: (await stat(path.join(dir, name))).size })));
  }
  return generateJpegs(dir, 'r', count, 28);
}

/** Every `ms`, while running: a pool's counts, PostgreSQL's client backends by state and wait. */
class Sampler {
  readonly pools = new Map<string, { waitingMax: number; waitingSum: number; busyMax: number; samplesWaiting: number }>();
  readonly backends = { samples: 0, activeSum: 0, activeMax: 0, totalMax: 0, waits: new Map<string, number>() };
  samples = 0;
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(pools: Record<string, pg.Pool>, client: pg.Client, ms: number) {
    for (const name of Object.keys(pools)) this.pools.set(name, { waitingMax: 0, waitingSum: 0, busyMax: 0, samplesWaiting: 0 });
    this.done = (async () => {
      let tick = 0;
      while (!this.stopped) {
        this.samples++;
        for (const [name, pool] of Object.entries(pools)) {
          const s = this.pools.get(name)!;
          s.waitingMax = Math.max(s.waitingMax, pool.waitingCount);
          s.waitingSum += pool.waitingCount;
          s.busyMax = Math.max(s.busyMax, pool.totalCount - pool.idleCount);
          if (pool.waitingCount > 0) s.samplesWaiting++;
        }
        if (tick++ % 5 === 0) await this.backendSample(client);
        await sleep(ms);
      }
    })();
  }

  private async backendSample(client: pg.Client): Promise<void> {
    const { rows } = await client.query<{ state: string | null; wait: string | null; n: number }>(
      `select state, wait_event_type || ':' || wait_event as wait, count(*)::int as n from pg_stat_activity
       where backend_type = 'client backend' and pid <> pg_backend_pid() group by 1, 2`,
    );
    const b = this.backends;
    b.samples++;
    const active = rows.filter((r) => r.state === 'active').reduce((s, r) => s + r.n, 0);
    b.activeSum += active;
    b.activeMax = Math.max(b.activeMax, active);
    b.totalMax = Math.max(b.totalMax, rows.reduce((s, r) => s + r.n, 0));
    for (const r of rows) if (r.state === 'active' && r.wait) b.waits.set(r.wait, (b.waits.get(r.wait) ?? 0) + r.n);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** Which kind of caller asked the pool for a connection: a read route, an upload request, or anything else (jobs). */
type Caller = 'read' | 'upload' | 'other';

/**
 * Wraps every pool's connect() to time how long each caller waited for a connection. The HTTP server's request
 * event marks its async context with the route kind, so the wait is put down to reads, uploads or the rest (jobs).
 */
function connectWaits(pools: pg.Pool[], server: import('node:http').Server, opened: { count: number; readsWithoutIdle: number }): Record<Caller, number[]> {
  const als = new AsyncLocalStorage<Caller>();
  const waits: Record<Caller, number[]> = { read: [], upload: [], other: [] };
  server.prependListener('request', (req: import('node:http').IncomingMessage) => {
    const url = req.url ?? '';
    als.enterWith(url.startsWith('/api/v1/ingestion') ? 'upload' : req.method === 'GET' ? 'read' : 'other');
  });
  for (const pool of pools) {
    const original = pool.connect.bind(pool) as (cb?: (...args: unknown[]) => void) => Promise<pg.PoolClient> | undefined;
    pool.on('connect', () => opened.count++);
    (pool as unknown as { connect: typeof original }).connect = (cb) => {
      const t = performance.now();
      const kind = als.getStore() ?? 'other';
      // No idle connection: this caller waits for a new one to open, or for one to be released.
      if (kind === 'read' && pool.idleCount === 0) opened.readsWithoutIdle++;
      if (cb) {
        return original((...args: unknown[]) => {
          waits[kind].push(performance.now() - t);
          cb(...args);
        });
      }
      return original()!.then((client) => {
        waits[kind].push(performance.now() - t);
        return client;
      });
    };
  }
  return waits;
}

/** Per thread group (the main thread, then by thread name and nice value): seconds on a CPU and runnable but waiting for one (Linux schedstat). */
function schedTimes(): Map<string, [number, number]> {
  const groups = new Map<string, [number, number]>();
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return groups; // not Linux
  }
  for (const tid of tids) {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      const stat = readStat(`/proc/self/task/${tid}/stat`);
      if (!stat) continue;
      const name = tid === String(process.pid) ? 'main thread' : `${stat.name} (nice ${stat.fields[16]})`;
      const g = groups.get(name) ?? [0, 0];
      groups.set(name, [g[0] + run! / 1e9, g[1] + wait! / 1e9]);
    } catch {
      // ended between the listing and the read
    }
  }
  return groups;
}

/** What each thread group used between two schedTimes(), biggest first (threads that ended in between are missing). */
function schedLines(before: Map<string, [number, number]>, after: Map<string, [number, number]>): string[] {
  return [...after.entries()]
    .map(([name, [run, wait]]) => [name, run - (before.get(name)?.[0] ?? 0), wait - (before.get(name)?.[1] ?? 0)] as const)
    .filter(([name, run]) => name === 'main thread' || run >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([name, run, wait]) => `  ${name}: ${fixed(run, 1)} / ${fixed(wait, 1)}`);
}

/** V8's names for the kinds of a 'gc' performance entry. */
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'minor mark-sweep', 4: 'mark-compact', 8: 'incremental marking', 16: 'weak callbacks' };
const gcKind = (kind: number) => GC_KINDS[kind] ?? `kind ${kind}`;

const p = (xs: number[], q: number) => fixed(percentile(xs, q), 0);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const load = () => os.loadavg().map((x) => fixed(x, 2)).join(' ');

/**
 * Read latency under ingestion (issue 28 item 10): 20 uploaders create datasets and upload JPEGs in batches
 * (data_files, process_files) while one reader loops over GET /api/v1/tasks, /api/v1/datasets and an Explore page.
 */
export async function readLatency(): Promise<BenchReport> {
  const uploaders = intFromEnv('BENCH_READ_UPLOADERS', 20);
  const perLane = intFromEnv('BENCH_READ_LANE_IMAGES', 20);
  const batch = intFromEnv('BENCH_READ_BATCH', 10);
  const durationS = intFromEnv('BENCH_READ_DURATION', 60);
  const gapMs = intFromEnv('BENCH_READ_GAP_MS', 20, 0);
  const files = await jpegs(uploaders * perLane);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  let client: pg.Client | null = null;
  let sampler: Sampler | null = null;
  try {
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' });
    loupe = await startLoupe(config);
    lowerOtherThreads(config.backgroundNice); // as src/main.ts does
    const { database } = loupe.container;
    const db = database.db;
    const issued = await loupe.container.services.auth.createUser('bench-read-latency@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    // A READY dataset for the Explore page, made before the load starts.
    const seeded = await ingest(loupe.url!, token, 'read-latency-explore', files.slice(0, 10), 10);

    const pools: Record<string, pg.Pool> = { ...((database as { pools?: Record<string, pg.Pool> }).pools ?? { pool: database.pool }) };
    const opened = { count: 0, readsWithoutIdle: 0 };
    const waits = connectWaits(Object.values(pools), loupe.app!.server, opened);
    // Inside the server: the tasks route's request event to its response's finish.
    const spans: Array<[number, number]> = [];
    const atServer = new Map<string, [number, number]>();
    loupe.app!.server.prependListener('request', (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (req.method !== 'GET' || req.url !== '/api/v1/tasks') return;
      const t = performance.now();
      res.once('finish', () => {
        spans.push([t, performance.now()]);
        const sent = req.headers[SENT_HEADER];
        if (typeof sent === 'string') atServer.set(sent, [performance.timeOrigin + t, performance.timeOrigin + performance.now()]);
      });
    });
    const gcs: Array<{ start: number; end: number; kind: number }> = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0 });
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    client = new pg.Client(database.connection);
    await client.connect();
    const processedImages = async () =>
      Number(
        (
          await db
            .selectFrom('upload_files')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('media_id', 'is not', null)
            .where('kind', '=', 'image')
            .executeTakeFirstOrThrow()
        ).n,
      );

    const routes = {
      'GET /api/v1/tasks': '/api/v1/tasks',
      'GET /api/v1/datasets': '/api/v1/datasets',
      'GET /api/v1/explore/{id} (first page)': `/api/v1/explore/${seeded.datasetId}?threshold=0`,
    };
    const lanes = Array.from({ length: uploaders }, (_, i) => files.slice(i * perLane, (i + 1) * perLane));
    const common = { base: loupe.url!, token, durationMs: durationS * 1000, batch, gapMs };
    const threads = await Promise.all([
      inProcess<UploadResult>({ ...common, role: 'uploaders', lanes, routes: {} }),
      inProcess<ReadResult>({ ...common, role: 'reader', lanes: [], routes }),
    ]);
    const loadBefore = load();
    const processedBefore = await processedImages();
    const eventLoop = monitorEventLoopDelay({ resolution: 10 });
    eventLoop.enable();
    sampler = new Sampler(pools, client, 100);
    const openedBefore = { ...opened };
    const cpuOf = cpuMeter();
    const schedBefore = schedTimes();
    for (const t of threads) t.go();
    const [uploads, reads] = await Promise.all([threads[0].done, threads[1].done]);
    const [up, read, seconds] = [uploads.result, reads.result, uploads.seconds];
    const cpu = cpuOf();
    const schedAfter = schedTimes();
    eventLoop.disable();
    await sampler.stop();
    const processed = (await processedImages()) - processedBefore;
    const loadAfter = load();
    if (up.errors.length > 0) throw new Error(`uploaders failed: ${up.errors.slice(0, 3).join('; ')}`);

    gcObserver.disconnect();
    const byKind = new Map<string, number[]>();
    for (const g of gcs) {
      const kind = gcKind(g.kind);
      if (!byKind.has(kind)) byKind.set(kind, []);
      byKind.get(kind)!.push(g.end - g.start);
    }
    const gcLine = [...byKind.entries()].map(([k, xs]) => `${k} ${xs.length} pauses, ${fixed(xs.reduce((a, b) => a + b, 0), 0)} ms in all, max ${fixed(Math.max(...xs), 0)}`).join('; ');
    const slow = [...spans].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, Math.max(1, Math.ceil(spans.length / 50)));
    const slowLines = slow.map(([t0, t1]) => {
      const overlap = gcs.filter((g) => g.end > t0 && g.start < t1).map((g) => `${gcKind(g.kind)} ${fixed(Math.min(t1, g.end) - Math.max(t0, g.start), 0)}`);
      return `${fixed(t1 - t0, 0)} ms (gc ${overlap.join(' ') || 'none'})`;
    });
    const split = read.sent
      .map(([sent, done]) => [sent, done, ...(atServer.get(String(sent)) ?? [NaN, NaN])] as const)
      .filter(([, , arrived]) => !Number.isNaN(arrived))
      .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
      .slice(0, Math.max(1, Math.ceil(read.sent.length / 50)))
      .map(([sent, done, arrived, finished]) => `${fixed(done - sent, 0)} = ${fixed(arrived - sent, 0)} + ${fixed(finished - arrived, 0)} + ${fixed(done - finished, 0)}`);
    const rows = Object.keys(routes).map((name) => {
      const xs = sorted(read.times[name]!);
      return [name, String(xs.length), String(read.failures[name]), p(xs, 0.5), p(xs, 0.95), p(xs, 0.99), p(xs, 1)];
    });
    const servedMs = sorted(spans.map(([t0, t1]) => t1 - t0));
    rows.push(['  GET /api/v1/tasks inside the server (request event to finish)', String(servedMs.length), '', p(servedMs, 0.5), p(servedMs, 0.95), p(servedMs, 0.99), p(servedMs, 1)]);
    const batchMs = sorted(up.batchMs);
    rows.push([`POST data_files (uploaders, ${batch} JPEGs a batch)`, String(batchMs.length), '0', p(batchMs, 0.5), p(batchMs, 0.95), p(batchMs, 0.99), p(batchMs, 1)]);
    const tasks = sorted(read.times['GET /api/v1/tasks']!);
    const tasksP99 = percentile(tasks, 0.99);
    const ms = (ns: number) => fixed(ns / 1e6, 0);
    const waitLine = (kind: Caller) => {
      const xs = sorted(waits[kind]);
      return `${kind} ${xs.length} (p50 ${fixed(percentile(xs, 0.5), 1)}, p99 ${fixed(percentile(xs, 0.99), 1)}, max ${fixed(percentile(xs, 1), 0)} ms)`;
    };
    const b = sampler.backends;
    const poolSamples = sampler.samples;
    const topWaits = [...b.waits.entries()].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([w, n]) => `${w} ${fixed(n / b.samples, 2)}`);
    return {
      title: `Read latency under ingestion: ${uploaders} uploaders, one reader, ${durationS} s`,
      notes: [
        `Loupe: startLoupe(role all), embedded PostgreSQL, pino silent, defaults otherwise (WORKER_CONCURRENCY ${config.workerConcurrency}, MEDIA_CONCURRENCY ${config.media.concurrency}, BACKGROUND_NICE ${config.backgroundNice}); ${os.cpus().length} CPUs.`,
        `Uploaders: ${uploaders} lanes in one child process (nice 0), each its own ${perLane} distinct 1024x768 JPEGs (q85, ${fixed(files.reduce((s, f) => s + f.bytes, 0) / files.length / 1000, 0)} KB mean;`,
        `  cached in ${path.dirname(files[0]!.path)}), dataset after dataset: new_dataset, data_files, POST batches of ${batch}, process_files; until the time is up.`,
        '  Requests go through node:http on a keep-alive agent; each batch body is built once per lane and sent whole.',
        `Reader: one lane in another child process, one request at a time round the routes, ${gapMs} ms between requests; the Explore page is`,
        '  that of a 10-JPEG dataset made READY before the load. The table is milliseconds, request sent to body read.',
        `Ingestion in the window (the uploaders' ${fixed(seconds, 1)} s, their last requests included): uploaded ${up.images} images in ${up.datasets} datasets = ${fixed(up.images / seconds, 1)} images/s, ${fixed(up.bytes / 1e6 / seconds, 1)} MB/s;`,
        `  processed (upload_files linked to media) ${processed} images = ${fixed(processed / seconds, 1)} images/s; process_files sent for ${up.processed} images.`,
        `CPU in the window: this process ${fixed(cpu.self, 0)} s (the server), PostgreSQL ${fixed(cpu.postgres, 0)} s, image and enrichment workers ${fixed(cpu.workers, 0)} s; the uploaders ${fixed(uploads.cpuSeconds, 0)} s and the reader ${fixed(reads.cpuSeconds, 0)} s in their whole lives; of ${fixed(seconds * os.cpus().length, 0)} s available.`,
        'Threads of this process (schedstat): seconds on a CPU / seconds runnable but waiting for one, by group:',
        ...schedLines(schedBefore, schedAfter),
        `Load average (1, 5, 15 min): before ${loadBefore}, after ${loadAfter}.`,
        `GC pauses of the server's main thread: ${gcLine}.`,
        `Slowest 2 % of tasks requests inside the server, and the GC pauses within each: ${slowLines.join(', ')}.`,
        `Slowest 2 % of tasks requests as the reader saw them, ms: total = sent to the server's request event + inside the server + finish to body read`,
        `  (the two processes' clocks agree to a few ms): ${split.join(', ')}.`,
        `Server event loop delay: p50 ${ms(eventLoop.percentile(50))}, p99 ${ms(eventLoop.percentile(99))}, max ${ms(eventLoop.max)} ms.`,
        `Pool connection waits (connect() to client, ms) by caller: ${waitLine('read')}; ${waitLine('upload')}; ${waitLine('other')}.`,
        `  In the window the pools opened ${opened.count - openedBefore.count} new connections; ${opened.readsWithoutIdle - openedBefore.readsWithoutIdle} reads found no idle connection.`,
        ...[...sampler.pools.entries()].map(
          ([name, s]) =>
            `Pool "${name}" (max ${pools[name]!.options.max}), sampled every 100 ms: busy max ${s.busyMax}, waiting max ${s.waitingMax}, mean ${fixed(s.waitingSum / poolSamples, 2)}, callers waiting in ${fixed((100 * s.samplesWaiting) / poolSamples, 0)} % of samples.`,
        ),
        `PostgreSQL client backends, sampled every 500 ms: at most ${b.totalMax} open, active mean ${fixed(b.activeSum / b.samples, 1)} (max ${b.activeMax}); active waiting on (mean per sample): ${topWaits.join(', ') || 'nothing'}.`,
        ...read.errors.map((e) => `Reader error: ${e}`),
      ],
      columns: ['route', 'requests', 'non-200', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      rows,
      goals: [
        {
          description: `tasks p99 < ${GOAL_TASKS_P99_MS} ms under ${uploaders} uploaders`,
          actual: `${fixed(tasksP99, 0)} ms (p50 ${p(tasks, 0.5)} ms; uploads ${fixed(up.images / seconds, 1)} images/s, processing ${fixed(processed / seconds, 1)} images/s)`,
          pass: tasksP99 < GOAL_TASKS_P99_MS && read.failures['GET /api/v1/tasks'] === 0,
        },
      ],
    };
  } finally {
    await sampler?.stop();
    await client?.end();
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
