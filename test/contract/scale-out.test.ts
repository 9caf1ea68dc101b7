import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../src/adapters/db/embedded-postgres.js';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { type S3rverHandle, startS3rver } from '../sources/s3rver-server.js';
import { exportArchive } from '../support/exports.js';
import { freePort } from '../support/free-port.js';
import { form, generatedJpegs, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, call, seededDataDir, tempDataDir, waitFor } from '../support/server.js';
import { isNotification, openStream } from '../support/sse.js';

/*
 * Loupe as it runs on several machines: one PostgreSQL over TCP (the embedded binaries, started here), one S3 bucket
 * (s3rver), two API processes and two worker processes, each a child process with a DATA_DIR of its own.
 */
const FILES = 24;
let database: EmbeddedPostgres;
let databaseUrl: string;
let s3: S3rverHandle;
const nodes: Array<{ role: 'api' | 'worker'; proc: ChildProcess; url: string | null }> = [];
let owner: TestUser;


const sharedEnv = () => ({
  ...process.env,
  ...(s3.env as Record<string, string>),
  DATABASE_URL: databaseUrl,
  BLOB_URL: 's3://loupe/blobs',
  LOUPE_SECRET_KEY: 'c'.repeat(64),
  TASK_CHUNK_ITEMS: '3',
  TASK_CHUNK_STALE_SECONDS: '3',
  MEDIA_CONCURRENCY: '1',
  LOG_LEVEL: 'silent',
});

async function startNode(role: 'api' | 'worker') {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/child-worker.ts'], {
    env: { ...sharedEnv(), LOUPE_ROLE: role, DATA_DIR: tempDataDir(), PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string | null>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((l) => l.includes('"ready":true'));
      if (line) resolve((JSON.parse(line) as { url: string | null }).url);
    });
    proc.once('exit', (code) => reject(new Error(`${role} exited early (${code})`)));
  });
  const node = { role, proc, url };
  nodes.push(node);
  return node;
}

/** The TestServer shape the support helpers take, for an API child process. */
const apiOf = (url: string) => ({ url, api: (token: string | null, method: string, route: string, body?: unknown, headers?: Record<string, string>) => call(url, token, method, route, body, headers) }) as unknown as TestServer;

const query = async <T,>(text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  database = await startEmbeddedPostgres(seededDataDir(), 'server', pino({ level: 'silent' }), 128, await freePort());
  const c = database.poolConfig;
  databaseUrl = `postgresql://${c.user}:${encodeURIComponent(String(c.password))}@127.0.0.1:${c.port}/${c.database}`;
  s3 = await startS3rver();
  const admin = s3.admin();
  await admin.send(new CreateBucketCommand({ Bucket: 'loupe' }));
  admin.destroy();
  await Promise.all([startNode('api'), startNode('api'), startNode('worker'), startNode('worker')]);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'user', 'create', '--email', 'scale-out@example.com', '--json'], {
    env: { ...sharedEnv(), DATA_DIR: tempDataDir() },
  });
  const issued = JSON.parse(stdout) as Omit<TestUser, 'token'>;
  owner = { ...issued, token: await signClientToken(issued.api_key, issued.api_secret, 600) };
}, 180_000);

afterAll(async () => {
  for (const { proc } of nodes) {
    if (proc.exitCode !== null || proc.signalCode !== null) continue;
    await new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.kill('SIGTERM');
    });
  }
  await s3?.close();
  await database?.stop();
});

describe('two API and two worker processes on one database and one bucket', () => {
  it('spreads a batch over both workers, survives one killed mid-batch, and serves it all from the other API', async () => {
    const [api1, api2] = nodes.filter((n) => n.role === 'api').map((n) => apiOf(n.url!));
    const [worker1, worker2] = nodes.filter((n) => n.role === 'worker');
    expect(await query<{ role: string }>('select role from nodes order by role')).toEqual([{ role: 'api' }, { role: 'api' }, { role: 'worker' }, { role: 'worker' }]);

    // Created through API 1, watched through API 2.
    const created = await api1!.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=spread');
    const datasetId = created.body.dataset_id as string;
    const transId = await openTransaction(api1!, owner, datasetId);
    const jpegs = await generatedJpegs(FILES, { width: 640, height: 480 });
    for (let i = 0; i < FILES; i += 8) expect((await upload(api1!, owner, datasetId, transId, jpegs.slice(i, i + 8))).status).toBe(202);
    const processed = await processFiles(api1!, owner, datasetId, transId);
    expect(processed.status).toBe(202);
    const taskId = processed.body.task_id as string;

    // Both workers hold chunks at some point; once worker 2 holds one it has not finished, it is killed.
    const pidOf = (claimer: string) => Number(claimer.split(':')[2]);
    const claimedBy = new Set<number>();
    await waitFor(async () => {
      const rows = await query<{ claimed_by: string | null; done_at: Date | null }>('select claimed_by, done_at from task_chunks where task_id = $1', [taskId]);
      for (const r of rows) if (r.claimed_by) claimedBy.add(pidOf(r.claimed_by));
      return rows.some((r) => r.claimed_by && pidOf(r.claimed_by) === worker2!.proc.pid && r.done_at === null) ? true : undefined;
    }, { timeout: 90_000, interval: 20, what: 'worker 2 holding an unfinished chunk' });
    worker2!.proc.kill('SIGKILL');

    const watched = await waitForDataset(api2!, owner, datasetId, ['READY', 'ERROR'], 150_000);
    expect([watched.status_new, watched.n_images]).toEqual(['READY', FILES]);
    const chunks = await query<{ claimed_by: string; done_at: Date | null; error: string | null }>('select claimed_by, done_at, error from task_chunks where task_id = $1', [taskId]);
    for (const c of chunks) claimedBy.add(pidOf(c.claimed_by));
    expect(claimedBy.has(worker1!.proc.pid!)).toBe(true);
    expect(claimedBy.has(worker2!.proc.pid!)).toBe(true);
    expect(chunks.every((c) => c.done_at !== null && c.error === null)).toBe(true);
    // Every file exactly once: each linked to a media row of its own, and no media row beyond them.
    expect(await query('select count(*)::int as files, count(distinct media_id)::int as media, (select count(*)::int from media) as rows from upload_files where dataset_id = $1', [datasetId])).toEqual([
      { files: FILES, media: FILES, rows: FILES },
    ]);

    // Exported and downloaded through API 2 (the link redirects to the bucket).
    const entries = await exportArchive(api2!, owner, datasetId, 'file_name=spread&export_format=json&include_images=true');
    expect([...entries.keys()].filter((k) => k.startsWith('images/'))).toHaveLength(FILES);
    expect(entries.get(`images/${jpegs[5]!.name}`)!.bytes.equals(jpegs[5]!.bytes)).toBe(true);

    // An alert made by the worker left reaches a stream held on API 2.
    expect((await api1!.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/views`, { name: 'new ones', monitoring_enabled: true, alerting_enabled: true })).status).toBe(200);
    const stream = await openStream(api2!.url, '/api/v1/notifications/stream', { authorization: `Bearer ${owner.token}` });
    try {
      expect((await api1!.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form([photo('kite.jpg')]))).status).toBe(202);
      const event = await stream.next(isNotification, 120_000);
      expect(event.data).toMatchObject({ user_id: owner.user_id, entity_type: 'saved_view', metadata: { is_alert: true, view_name: 'new ones', result_count: 1 } });
      // A client that reconnects to the other API node with Last-Event-ID gets what it missed there.
      const resumed = await openStream(api1!.url, '/api/v1/notifications/stream', { authorization: `Bearer ${owner.token}`, 'last-event-id': String(Number(event.id) - 1) });
      try {
        expect(await resumed.next(isNotification)).toEqual(event);
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
  }, 400_000);
});
