import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, photo } from '../support/ingest.js';
import { type SseStream, isNotification, openStream } from '../support/sse.js';

/*
 * Two processes on one database: this one runs the API role only (it owns the embedded PostgreSQL of its
 * DATA_DIR), a child runs the worker role against it through DATABASE_URL (PostgreSQL's unix socket)
 * and the same DATA_DIR for blobs. Datasets, media batches and alerts are all made by the child; the
 * API process learns of each notification through LISTEN/NOTIFY and streams it.
 */
let api: TestServer;
let worker: ChildProcess | null = null;
let owner: TestUser;
let stranger: TestUser;
let datasetId: string;
let otherDatasetId: string;
let viewId: string;
const streams: SseStream[] = [];

const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const stream = async (headers: Record<string, string>, query = '') => {
  const s = await openStream(api.url, `/api/v1/notifications/stream${query}`, headers);
  streams.push(s);
  return s;
};
/** Waits for a ping sent after this call: everything the server wrote before it has arrived. */
const barrier = async (s: SseStream) => {
  const seen = s.events.length;
  await s.next((e) => e.event === 'ping' && s.events.indexOf(e) >= seen, 5_000);
};
const total = async (user = owner) => (await api.api(user.token, 'GET', '/api/v1/notifications')).body.total as number;
const addBatch = async (name: string, user = owner, id = datasetId) => {
  const before = await total(user);
  expect((await api.api(user.token, 'POST', `/api/v1/dataset/${id}/add_media`, form([photo(name)]))).status).toBe(202);
  await waitFor(async () => ((await total(user)) > before ? true : undefined), 90_000, 'alert');
};
/** A user of its own with a dataset an alerting view watches, so the notifications a test reads are only its own. */
const watcher = async () => {
  const user = await api.createUser();
  const { datasetId: id } = await createDataset(api, user, 'streamed', [[photo('dog.jpg'), photo('horses.jpg')]]);
  await api.api(user.token, 'POST', `/api/v1/dataset/${id}/views`, { name: 'all new', monitoring_enabled: true, alerting_enabled: true });
  return { user, id };
};

async function startWorker(): Promise<void> {
  const c = api.loupe.container.database.connection;
  const databaseUrl = `postgresql://${c.user}:${encodeURIComponent(String(c.password))}@localhost:${c.port}/${c.database}?host=${encodeURIComponent(String(c.host))}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/child-worker.ts'], {
    env: { ...process.env, LOUPE_ROLE: 'worker', DATA_DIR: api.dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ALERT_SWEEP_INTERVAL_SECONDS: '3600' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  worker = proc;
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"ready":true')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

beforeAll(async () => {
  api = await startTestServer({ env: { LOUPE_ROLE: 'api' } });
  await startWorker();
  [owner, stranger] = await Promise.all([api.createUser(), api.createUser()]);
  ({ datasetId } = await createDataset(api, owner, 'streamed', [[photo('dog.jpg'), photo('horses.jpg')]]));
  ({ datasetId: otherDatasetId } = await createDataset(api, owner, 'quiet', [[photo('kite.jpg')]]));
  const view = await api.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/views`, { name: 'all new', monitoring_enabled: true, alerting_enabled: true });
  viewId = view.body.id;
}, 180_000);

afterAll(async () => {
  for (const s of streams) s.close();
  if (worker) {
    const proc = worker;
    await new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.kill('SIGTERM');
    });
  }
  await api?.close();
});

describe('the notification stream across processes', () => {
  it('streams an alert that a worker in another process produced, to bearer and cookie streams alike', async () => {
    expect(api.loupe.worker).toBeNull();
    const login = await api.api(null, 'POST', '/api/v1/auth/session', { api_key: owner.api_key, api_secret: owner.api_secret });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const byToken = await stream(bearer(owner));
    const byCookie = await stream({ cookie });
    const strangers = await stream(bearer(stranger));
    for (const s of [byToken, byCookie]) {
      expect(s.status).toBe(200);
      expect(s.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
      expect(s.headers['content-encoding']).toBeUndefined();
    }

    await addBatch('coffee.png');
    const event = await byToken.next(isNotification);
    const list = (await api.api(owner.token, 'GET', '/api/v1/notifications')).body;
    expect(event.data).toEqual(list.notifications[0]);
    expect(event.data).toMatchObject({ user_id: owner.user_id, entity_type: 'saved_view', entity_id: viewId, metadata: { is_alert: true, view_name: 'all new', result_count: 1 } });
    expect(event.id).toMatch(/^\d+$/);
    expect(await byCookie.next(isNotification)).toEqual(event);

    await barrier(strangers);
    expect(strangers.events.filter(isNotification)).toEqual([]);
  });

  it('pings every 3 seconds with a JSON data line', async () => {
    const s = await stream(bearer(owner));
    const pings = [await s.next((e) => e.event === 'ping'), await s.next((e) => e.event === 'ping', 5_000)];
    for (const ping of pings) expect(Date.parse(ping.data.time)).not.toBeNaN();
    expect(s.events.filter(isNotification)).toEqual([]);
  });

  it('replays what a client missed when it reconnects with Last-Event-ID', async () => {
    const { user, id } = await watcher();
    const live = await stream(bearer(user));
    await addBatch('coffee.png', user, id);
    const first = (await live.next(isNotification)) as { id: string; data: any };
    for (const s of streams.splice(0)) s.close();
    await addBatch('astronaut.png', user, id);
    const newest = (await api.api(user.token, 'GET', '/api/v1/notifications')).body.notifications[0];

    const resumed = await stream({ ...bearer(user), 'last-event-id': first.id });
    const missed = await resumed.next(isNotification);
    expect(missed.data).toEqual(newest);
    expect(Number(missed.id)).toBeGreaterThan(Number(first.id));

    const fromStart = await stream(bearer(user), '?last_event_id=0');
    const replayed = [await fromStart.next(isNotification), await fromStart.next(isNotification)];
    expect(replayed.map((e) => e.data.id)).toEqual([first.data.id, newest.id]);

    const otherDataset = await stream({ ...bearer(user), 'last-event-id': '0' }, `?dataset_id=${otherDatasetId}`);
    await barrier(otherDataset);
    expect(otherDataset.events.filter(isNotification)).toEqual([]);
    expect(resumed.events.filter(isNotification)).toHaveLength(1);
  });

  it('forgets a stream when its client goes', async () => {
    const hub = api.loupe.container.notificationStreams;
    await stream(bearer(owner));
    await stream(bearer(stranger));
    expect(hub.size).toBe(streams.length);
    for (const s of streams.splice(0)) s.close();
    await waitFor(async () => (hub.size === 0 ? true : undefined), 5_000, 'streams released');
  });

  it('needs a caller (401) and a numeric Last-Event-ID (422)', async () => {
    const anonymous = await openStream(api.url, '/api/v1/notifications/stream', {});
    expect(anonymous.status).toBe(401);
    const bad = await openStream(api.url, '/api/v1/notifications/stream', { ...bearer(owner), 'last-event-id': 'abc' });
    expect(bad.status).toBe(422);
    const badDataset = await openStream(api.url, '/api/v1/notifications/stream?dataset_id=nope', bearer(owner));
    expect(badDataset.status).toBe(422);
    for (const s of [anonymous, bad, badDataset]) s.close();
  });
});
