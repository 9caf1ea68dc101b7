import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSdkBuilt } from '../../sdk/build.js';
import { Loupe, type LoupeOptions, type StreamEvent } from '../../sdk/src/index.js';
import { generatedJpegs } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type Proxy, startProxy } from './proxy.js';

let server: TestServer;
let owner: TestUser;
let proxy: Proxy;
let tmp: string;
let datasetId: string;

const via = (options: Partial<LoupeOptions> = {}) => new Loupe({ url: proxy.url, apiKey: owner.api_key, apiSecret: owner.api_secret, retryBaseDelayMs: 20, ...options });
const direct = () => new Loupe({ url: server.url, apiKey: owner.api_key, apiSecret: owner.api_secret });
const requests = (match: string) => proxy.seen.filter((r) => r.url.includes(match));
async function jpegFolder(name: string, count: number, offset = 0): Promise<string> {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [i, file] of (await generatedJpegs(count + offset)).slice(offset).entries()) fs.writeFileSync(path.join(dir, `${name}-${i}.jpg`), file.bytes);
  return dir;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sdk-'));
  server = await startTestServer();
  owner = await server.createUser();
  proxy = await startProxy(server.url);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('retries', () => {
  it('repeats a read after 503, 429 (waiting as Retry-After says) and a dropped connection', async () => {
    proxy.seen = [];
    proxy.plan = (_req, i) => [{ status: 503 }, { status: 429, headers: { 'retry-after': '1' } }, { drop: 'at-once' as const }][i] ?? { pass: true };
    const started = Date.now();
    expect(await via().me()).toEqual({ user_id: owner.user_id, email: owner.email });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(requests('/api/v1/auth/me')).toHaveLength(4);
  });

  it('gives up after its retries with the last answer’s detail', async () => {
    proxy.seen = [];
    proxy.plan = () => ({ status: 503, body: { detail: 'down for maintenance' } });
    await expect(via({ retries: 2 }).me()).rejects.toMatchObject({ name: 'LoupeError', status: 503, detail: 'down for maintenance', method: 'GET', path: '/api/v1/auth/me' });
    expect(proxy.seen).toHaveLength(3);
  });

  it('never repeats a POST the server may have acted on', async () => {
    proxy.seen = [];
    proxy.plan = () => ({ status: 502, body: { detail: 'bad gateway' } });
    await expect(via().createSnapshot('00000000-0000-4000-8000-000000000000', { name: 'x' })).rejects.toMatchObject({ status: 502, detail: 'bad gateway' });
    expect(proxy.seen).toHaveLength(1);

    proxy.seen = [];
    proxy.plan = (req) => (req.method === 'POST' ? { drop: 'mid-body' } : { pass: true });
    await expect(via().createDataset('dropped', await jpegFolder('dropped', 1))).rejects.toThrow();
    expect(requests('/data_files/').filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('sends an upload batch again when it was refused before being read, and the server counts each file once', async () => {
    proxy.seen = [];
    let refused = false;
    proxy.plan = (req) => {
      if (req.method !== 'POST' || !req.url.includes('/data_files/') || refused) return { pass: true };
      refused = true;
      return { status: 503, body: { detail: 'busy' } };
    };
    const dataset = await via().createDataset('streamed', await jpegFolder('streamed', 2), { batchSize: 1, wait: true });
    datasetId = dataset.id;
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 2 });
    expect(requests('/data_files/').filter((r) => r.method === 'POST')).toHaveLength(3);
  }, 90_000);
});

describe('auth', () => {
  it('signs its own token, and signs a new one before the old one expires', async () => {
    proxy.seen = [];
    proxy.plan = () => ({ pass: true });
    const loupe = via({ tokenTtlSeconds: 2 });
    await loupe.me();
    await new Promise((resolve) => setTimeout(resolve, 1700));
    await loupe.me();
    const tokens = proxy.seen.map((r) => r.headers.authorization!.replace('Bearer ', ''));
    expect(new Set(tokens).size).toBe(2);
    for (const token of tokens) {
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: owner.api_key });
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({ sub: owner.api_key, iss: 'sdk' });
      expect(claims.exp! - claims.iat!).toBe(2);
    }
  });

  it('signs again once after a 401, and reports a second 401 with the server’s detail', async () => {
    proxy.seen = [];
    proxy.plan = (_req, i) => (i === 0 ? { status: 401, body: { detail: 'token has expired' } } : { pass: true });
    expect((await via().me()).email).toBe(owner.email);
    expect(proxy.seen).toHaveLength(2);

    proxy.seen = [];
    proxy.plan = () => ({ pass: true });
    const wrong = via({ apiSecret: 'not-the-secret' });
    const failure = await wrong.me().catch((err: unknown) => err);
    expect(failure).toMatchObject({ name: 'LoupeError', status: 401 });
    expect((failure as Error).message).toBe((await server.api(null, 'GET', '/api/v1/auth/me', undefined, { authorization: proxy.seen[0]!.headers.authorization! })).body.detail);
    expect(proxy.seen).toHaveLength(2);
  });
});

describe('notifications', () => {
  it('streams a notification, and after a cut connection resumes with Last-Event-ID without losing one', async () => {
    const views = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/views`, { name: 'all new', monitoring_enabled: true, alerting_enabled: true });
    expect(views.status).toBe(200);
    proxy.seen = [];
    proxy.plan = () => ({ pass: true });
    const stop = new AbortController();
    const events: StreamEvent[] = [];
    const reading = (async () => {
      for await (const event of via().notificationStream({ signal: stop.signal, pings: true })) events.push(event);
    })();
    const notifications = () => events.filter((e) => e.event === 'notification');
    await waitFor(async () => (events.some((e) => e.event === 'ping') ? true : undefined), 10_000, 'the first ping');

    await direct().addMedia(datasetId, await jpegFolder('first-alert', 1, 2), { wait: true });
    const [first] = await waitFor(async () => (notifications().length ? notifications() : undefined), 30_000, 'a notification');
    expect(first).toMatchObject({ event: 'notification', id: expect.stringMatching(/^\d+$/), data: { dataset_id: datasetId, metadata: { is_alert: true, view_name: 'all new', result_count: 1 } } });

    // Cut the stream and hold the reconnect until a second notification exists: only Last-Event-ID can bring it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    proxy.plan = (req) => (req.url.startsWith('/api/v1/notifications/stream') ? { pass: true, after: held } : { pass: true });
    proxy.cut();
    await direct().addMedia(datasetId, await jpegFolder('second-alert', 1, 3), { wait: true });
    await waitFor(async () => ((await direct().unreadCount(datasetId)) === 2 ? true : undefined), 30_000, 'the second notification');
    release();
    const second = (await waitFor(async () => (notifications().length >= 2 ? notifications() : undefined), 30_000, 'the missed notification'))[1]!;
    expect(Number(second.id)).toBeGreaterThan(Number(first!.id));
    expect(notifications()).toHaveLength(2);
    const reconnects = requests('/api/v1/notifications/stream').slice(1);
    expect(reconnects.length).toBeGreaterThanOrEqual(1);
    expect(reconnects[0]!.headers['last-event-id']).toBe(first!.id);
    stop.abort();
    await reading;

    const loupe = direct();
    const listed = [];
    for await (const n of loupe.notifications({ datasetId, pageSize: 1 })) listed.push(n);
    expect(listed.map((n) => n.id).sort()).toEqual([first!.data.id, second.data.id].sort());
    await loupe.markRead(first!.data.id);
    expect(await loupe.unreadCount(datasetId)).toBe(1);
    await loupe.markAllRead(datasetId);
    expect(await loupe.unreadCount(datasetId)).toBe(0);
  }, 90_000);
});

describe('the package export', () => {
  it("`import { Loupe, fromEnv } from 'loupe/sdk'` loads the built SDK", async () => {
    await ensureSdkBuilt();
    const script = "import { Loupe, fromEnv } from 'loupe/sdk'; const me = await fromEnv().me(); console.log(JSON.stringify({ me, loupe: typeof Loupe, from: import.meta.resolve('loupe/sdk') }));";
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, LOUPE_URL: server.url, LOUPE_API_KEY: owner.api_key, LOUPE_API_SECRET: owner.api_secret },
    });
    const out = JSON.parse(stdout);
    expect(out).toEqual({ me: { user_id: owner.user_id, email: owner.email }, loupe: 'function', from: expect.stringMatching(/\/sdk\/dist\/sdk\/src\/index\.js$/) });
  }, 90_000);
});
