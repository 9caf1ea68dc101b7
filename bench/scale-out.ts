import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import pino from 'pino';
import type { BlobStore } from '../src/adapters/blobs/blob-store.js';
import { FsBlobStore } from '../src/adapters/blobs/fs-blob-store.js';
import { S3BlobStore } from '../src/adapters/blobs/s3-blob-store.js';
import { startEmbeddedPostgres } from '../src/adapters/db/embedded-postgres.js';
import { s3Client } from '../src/adapters/s3-client.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { startS3rver } from '../test/sources/s3rver-server.js';
import { freePort } from '../test/support/free-port.js';
import { ingest } from './lib/ingest.js';
import { generateSmallJpegs } from './lib/media-gen.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';

/*
 * Issue 24's bench: dataset creation with the media stage in chunks, in separate processes on one database over TCP
 * (the embedded binaries, as the multi-process test starts them): one API process and 1 or 2 worker processes, all on
 * one DATA_DIR (its file blob store, which nodes on one DATA_DIR share). Against it, the single-job path: one chunk
 * holding every file, processed by the task alone, as before chunks. Then the blob stores' put and get throughput: the
 * file store against S3BlobStore on s3rver (a Node fake of S3 in this process: its figure is s3rver's more than S3's).
 */

const IMAGES = Number(process.env.BENCH_SCALE_OUT_IMAGES ?? 1000);
const CHUNK = 200;
const MB = 1e6;


async function startProcess(env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; url: string | null }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/child-worker.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string | null>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.includes('"ready":true'));
      if (line) resolve((JSON.parse(line) as { url: string | null }).url);
    });
    proc.once('exit', (code) => reject(new Error(`a Loupe process exited early (${code})`)));
  });
  return { proc, url };
}

const stop = (proc: ChildProcess) =>
  new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve(null);
    proc.once('exit', resolve);
    proc.kill('SIGTERM');
  });

interface CaseResult {
  name: string;
  workers: number;
  seconds: number;
  mediaSeconds: number;
  chunks: number;
  perWorker: number[];
}

async function creationCase(name: string, workers: number, chunkItems: number, base: NodeJS.ProcessEnv, files: Awaited<ReturnType<typeof generateSmallJpegs>>, databaseUrl: string): Promise<CaseResult> {
  const env = { ...base, TASK_CHUNK_ITEMS: String(chunkItems) };
  const api = await startProcess({ ...env, LOUPE_ROLE: 'api', PORT: '0' });
  const workerProcs = await Promise.all(Array.from({ length: workers }, () => startProcess({ ...env, LOUPE_ROLE: 'worker' })));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'user', 'create', '--email', `bench-${randomBytes(4).toString('hex')}@example.com`, '--json'], { env });
    const issued = JSON.parse(stdout) as { api_key: string; api_secret: string };
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const result = await ingest(api.url!, token, name, files, 100);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const media = await client.query<{ seconds: number }>(
        `select extract(epoch from max(m.created_at) - min(m.created_at))::float8 as seconds from upload_files u join media m on m.id = u.media_id where u.dataset_id = $1`,
        [result.datasetId],
      );
      const chunks = await client.query<{ claimed_by: string }>('select claimed_by from task_chunks where task_id = $1', [result.taskId]);
      const pids = workerProcs.map((w) => w.proc.pid!);
      const perWorker = pids.map((pid) => chunks.rows.filter((c) => Number(c.claimed_by.split(':')[2]) === pid).length);
      return { name, workers, seconds: (result.t.ready - result.t.processStart) / 1000, mediaSeconds: media.rows[0]!.seconds, chunks: chunks.rows.length, perWorker };
    } finally {
      await client.end();
    }
  } finally {
    for (const w of workerProcs) await stop(w.proc);
    await stop(api.proc);
  }
}

/** MB/s putting then reading `count` blobs of `size` bytes through `store`. */
async function throughput(store: BlobStore, count: number, size: number): Promise<{ put: number; get: number }> {
  const blobs = Array.from({ length: count }, () => randomBytes(size));
  let t = performance.now();
  const stored = [];
  for (const b of blobs) stored.push(await store.put(Readable.from([b.subarray(0, size / 2), b.subarray(size / 2)])));
  const put = (count * size) / MB / ((performance.now() - t) / 1000);
  t = performance.now();
  for (const s of stored) for await (const _ of await store.open(s.hash));
  const get = (count * size) / MB / ((performance.now() - t) / 1000);
  return { put, get };
}

export async function scaleOut(): Promise<BenchReport> {
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const loadAtStart = load();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-scale-out-'));
  // Run as root, the database runs as the system user postgres, which must reach its folder inside this one.
  fs.chmodSync(root, 0o711);
  const database = await startEmbeddedPostgres(path.join(root, 'db'), 'server', pino({ level: 'silent' }), 256, await freePort());
  const c = database.poolConfig;
  const databaseUrl = `postgresql://${c.user}:${encodeURIComponent(String(c.password))}@127.0.0.1:${c.port}/${c.database}`;
  // Migrated once here (the processes would race to): one API start does it.
  const shared = path.join(root, 'node');
  const base: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: shared, LOUPE_SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' };
  const files = await generateSmallJpegs(path.join(root, 'jpegs'), 'scale-out', IMAGES, 24);
  const rows: string[][] = [];
  const goals: Goal[] = [];
  const cases: CaseResult[] = [];
  try {
    await stop((await startProcess({ ...base, LOUPE_ROLE: 'api', PORT: '0' })).proc);
    cases.push(await creationCase('1 worker, one chunk of every file (the single-job path)', 1, 100_000, base, files, databaseUrl));
    cases.push(await creationCase(`1 worker, chunks of ${CHUNK}`, 1, CHUNK, base, files, databaseUrl));
    cases.push(await creationCase(`2 workers, chunks of ${CHUNK}`, 2, CHUNK, base, files, databaseUrl));
    for (const r of cases) {
      rows.push([`creation of ${IMAGES} images: ${r.name}`, `${fixed(r.seconds, 1)} s (media stage ${fixed(r.mediaSeconds, 1)} s, ${fixed(IMAGES / r.mediaSeconds, 1)} images/s)`, `${r.chunks} chunk(s); per worker ${r.perWorker.join(' / ')}`]);
    }
    const [single, chunked, two] = cases as [CaseResult, CaseResult, CaseResult];
    const overhead = chunked.mediaSeconds / single.mediaSeconds - 1;
    goals.push({ description: `chunking overhead, media stage of ${IMAGES} images on 1 worker: < 10 %`, actual: `${fixed(100 * overhead, 1)} % (${fixed(chunked.mediaSeconds, 1)} vs ${fixed(single.mediaSeconds, 1)} s)`, pass: overhead < 0.1 });
    const fair = Math.min(...two.perWorker) / two.chunks;
    goals.push({ description: 'both workers take a fair share of the chunks: each >= a third', actual: `${two.perWorker.join(' / ')} of ${two.chunks}`, pass: fair >= 1 / 3 });
    rows.push(['2 workers against 1 (same 2 cores: no speed-up expected)', `${fixed(single.mediaSeconds / two.mediaSeconds, 2)}x the single path's media stage speed`, '']);

    const s3 = await startS3rver();
    const admin = s3.admin();
    await admin.send(new CreateBucketCommand({ Bucket: 'bench' }));
    admin.destroy();
    const client = s3Client(s3.env);
    try {
      const stores: Array<[string, BlobStore]> = [
        ['file store', new FsBlobStore(path.join(root, 'fs-blobs'))],
        ['S3BlobStore on s3rver', new S3BlobStore(client, { bucket: 'bench', prefix: 'b/' }, path.join(root, 'spool'))],
      ];
      for (const [count, size] of [[200, 256 * 1024], [4, 64 * 1024 * 1024]] as const) {
        for (const [name, store] of stores) {
          const t = await throughput(store, count, size);
          rows.push([`${name}: ${count} blobs of ${fixed(size / MB, 2)} MB`, `put ${fixed(t.put, 1)} MB/s, get ${fixed(t.get, 1)} MB/s`, '']);
        }
      }
    } finally {
      client.destroy();
      await s3.close();
    }
  } finally {
    await database.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return {
    title: 'Scale-out: the media stage in chunks over worker processes, and the S3 blob store (issue 24)',
    notes: [
      `${os.cpus().length} CPUs. Load average at start ${loadAtStart}, at the end ${load()}.`,
      `Each case: a fresh API process and 1 or 2 worker processes (child processes, DATABASE_URL over TCP to one embedded PostgreSQL, one DATA_DIR),`,
      `  ${IMAGES} small JPEGs uploaded in batches of 100, process_files -> READY timed; media stage = first to last media row written.`,
      `  "per worker": chunks whose last claimer ran in that worker process (the task's own claims count for the worker running it).`,
      'Blob stores: sequential puts (each streamed in two parts) then reads of the same blobs; s3rver runs in this process.',
    ],
    columns: ['row', 'figure', 'detail'],
    rows,
    goals,
  };
}
