import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type UploadFile, createDataset, form, photo } from '../support/ingest.js';
import { type SseStream, isNotification, openStream } from '../support/sse.js';

let server: TestServer;
/** Another user's dataset, for the dataset filters: nobody's notifications are in it. */
let otherDatasetId: string;
const streams: SseStream[] = [];

/** A dataset with its users, saved views and processed batches, each test that changes notifications making its own. */
interface Alerted {
  owner: TestUser;
  editor: TestUser;
  viewer: TestUser;
  stranger: TestUser;
  docsReader: TestUser;
  datasetId: string;
  views: Record<string, string>;
  batchId: string;
  /** The owner's notification stream, opened before the first batch. */
  stream: SseStream;
}

const list = async (user: TestUser, query = '') => (await server.api(user.token, 'GET', `/api/v1/notifications${query}`)).body;
const unread = async (user: TestUser, query = '') => (await server.api(user.token, 'GET', `/api/v1/notifications/unread-count${query}`)).body as number;
const saveView = async (a: Pick<Alerted, 'datasetId' | 'views'>, user: TestUser, name: string, filters: string, body: Record<string, unknown>) => {
  const res = await server.api(user.token, 'POST', `/api/v1/dataset/${a.datasetId}/views${filters}`, { name, ...body });
  expect(res.status, res.text).toBe(200);
  a.views[name] = res.body.id;
};
const batchRow = (id: string) => server.loupe.container.database.db.selectFrom('media_batches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** Adds media as one batch and waits for its task and its alerts; the batch id is the task id. */
const addBatch = async (a: Pick<Alerted, 'owner' | 'datasetId'>, files: UploadFile[], autoReindex = false) => {
  const body = form(files);
  if (autoReindex) body.append('auto_reindex', 'true');
  expect((await server.api(a.owner.token, 'POST', `/api/v1/dataset/${a.datasetId}/add_media`, body)).status).toBe(202);
  const task = await waitFor(async () => {
    const t = (await server.api(a.owner.token, 'GET', `/api/v1/tasks?dataset_id=${a.datasetId}&task_type=MEDIA_ADDITION`)).body.tasks[0];
    return t?.status === 'COMPLETED' ? t : undefined;
  }, 90_000, 'media added');
  const id = task.task_id as string;
  await waitFor(async () => ((await batchRow(id)).alerts_evaluated_at ? true : undefined), 20_000, 'batch alerts evaluated');
  return id;
};

/**
 * Five users of their own and a dataset "alerts" where they save the file's views, then the coffee and kite batch
 * (and, with `second`, the astronaut batch added with auto_reindex).
 */
async function alertedDataset({ second = false } = {}): Promise<Alerted> {
  const [owner, editor, viewer, stranger, docsReader] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  const { datasetId } = await createDataset(server, owner, 'alerts', [[photo('dog.jpg')]]);
  const a = { owner, editor, viewer, stranger, docsReader, datasetId, views: {} as Record<string, string> };
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
  await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: editor.email, role: 'editor' });
  await saveView(a, owner, 'coffee', '?file_name=coffee', { monitoring_enabled: true, alerting_enabled: true, notify_emails: [editor.email] });
  await saveView(a, viewer, 'everything', '', { monitoring_enabled: true, alerting_enabled: true });
  await saveView(a, owner, 'monitored only', '', { monitoring_enabled: true, alerting_enabled: false });
  await saveView(a, owner, 'alerting, not monitored', '', { monitoring_enabled: false, alerting_enabled: true });
  await saveView(a, owner, 'zebras', '?file_name=zebra', { monitoring_enabled: true, alerting_enabled: true });
  // Saved as the hosted service's docs save a view: a name and nothing else.
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: docsReader.email });
  const named = new FormData();
  named.append('name', 'kites');
  const kites = await server.api(docsReader.token, 'POST', `/api/v1/dataset/${datasetId}/views?file_name=kite`, named);
  expect(kites.status, kites.text).toBe(200);
  expect(kites.body).toMatchObject({ monitoring_enabled: true, alerting_enabled: true });
  a.views.kites = kites.body.id;

  const stream = await openStream(server.url, '/api/v1/notifications/stream', { authorization: `Bearer ${owner.token}` });
  streams.push(stream);
  const batchId = await addBatch(a, [photo('coffee.png'), photo('kite.jpg')]);
  if (second) await addBatch(a, [photo('astronaut.png')], true);
  return { ...a, batchId, stream };
}

beforeAll(async () => {
  server = await startTestServer({ env: { ALERT_SWEEP_INTERVAL_SECONDS: '1' } });
  const elsewhere = await server.createUser();
  ({ datasetId: otherDatasetId } = await createDataset(server, elsewhere, 'elsewhere', [[photo('kite.jpg')]]));
}, 180_000);
afterAll(async () => {
  for (const stream of streams) stream.close();
  await server?.close();
});

describe('alerts from a processed media batch', () => {
  /** Read-only for the tests that share it: the first batch, alerted, nothing changed afterwards. */
  let shared: Alerted;

  beforeAll(async () => {
    shared = await alertedDataset();
  }, 120_000);

  it('gives each entitled user of a matching, monitored, alerting view exactly one notification', async () => {
    const { owner, editor, viewer, stranger, datasetId, views, batchId } = shared;
    const mine = await waitFor(async () => ((await list(owner)).total >= 1 ? list(owner) : undefined), 20_000, 'owner alerted');
    expect(mine).toEqual({ notifications: [expect.any(Object)], total: 1, has_more: false });
    expect(mine.notifications[0]).toEqual({
      id: expect.any(String),
      user_id: owner.user_id,
      entity_type: 'saved_view',
      entity_id: views.coffee,
      title: expect.stringContaining('coffee'),
      message: expect.stringContaining('alerts'),
      metadata: { batch_id: batchId, is_alert: true, view_name: 'coffee', dataset_name: 'alerts', result_count: 1 },
      dataset_id: datasetId,
      created_at: expect.any(String),
      read_at: null,
    });
    const editors = await waitFor(async () => ((await list(editor)).total >= 1 ? list(editor) : undefined), 20_000, 'editor alerted');
    expect(editors.notifications.map((n: any) => [n.user_id, n.entity_id, n.metadata.result_count])).toEqual([[editor.user_id, views.coffee, 1]]);
    const viewers = await waitFor(async () => ((await list(viewer)).total >= 1 ? list(viewer) : undefined), 20_000, 'viewer alerted');
    expect(viewers.notifications.map((n: any) => [n.entity_id, n.metadata.view_name, n.metadata.result_count])).toEqual([[views.everything, 'everything', 2]]);
    expect((await list(stranger)).total).toBe(0);
    expect((await batchRow(batchId)).alerts_evaluated_at).not.toBeNull();
    expect((await list(owner)).total).toBe(1);
  });

  it('alerts from a view saved with its name only: monitoring and alerting are on by default', async () => {
    const { docsReader, views, batchId } = shared;
    const theirs = await waitFor(async () => ((await list(docsReader)).total >= 1 ? list(docsReader) : undefined), 20_000, 'docs reader alerted');
    expect(theirs.total).toBe(1);
    expect(theirs.notifications[0]).toMatchObject({
      user_id: docsReader.user_id,
      entity_type: 'saved_view',
      entity_id: views.kites,
      metadata: { batch_id: batchId, is_alert: true, view_name: 'kites', dataset_name: 'alerts', result_count: 1 },
    });
  });

  it('counts unread notifications as a bare integer, optionally for one dataset', async () => {
    const { owner, stranger, datasetId } = shared;
    const res = await server.api(owner.token, 'GET', '/api/v1/notifications/unread-count');
    expect(res).toMatchObject({ status: 200, text: '1', body: 1 });
    expect(await unread(owner, `?dataset_id=${datasetId}`)).toBe(1);
    expect(await unread(owner, `?dataset_id=${otherDatasetId}`)).toBe(0);
    expect(await unread(stranger)).toBe(0);
  });

  it('streams it to the open stream, every data line being JSON', async () => {
    const { owner, stream } = shared;
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const event = await stream.next(isNotification);
    expect(event.id).toMatch(/^\d+$/);
    expect(event.data).toEqual((await list(owner)).notifications[0]);
    expect(stream.events.filter(isNotification)).toHaveLength(1);
  });

  it('never alerts the same batch twice, even when it is evaluated again', async () => {
    const { owner, editor, viewer, batchId } = await alertedDataset();
    const { db } = server.loupe.container.database;
    await db.updateTable('media_batches').set({ alerts_evaluated_at: null }).where('id', '=', batchId).execute();
    await waitFor(async () => ((await batchRow(batchId)).alerts_evaluated_at ? true : undefined), 10_000, 'evaluated again');
    for (const user of [owner, editor, viewer]) expect((await list(user)).total).toBe(1);
  });

  it('evaluates a batch whose announcement was missed, from the periodic sweep', async () => {
    const { owner, editor, viewer, views, batchId, stream } = await alertedDataset();
    await stream.next(isNotification);
    const { db } = server.loupe.container.database;
    // As if the batch had committed while no worker listened: no alerts yet, no NOTIFY, only the row.
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('notifications').where('batch_id', '=', batchId).execute();
      await trx.updateTable('media_batches').set({ alerts_evaluated_at: null }).where('id', '=', batchId).execute();
    });
    const again = await waitFor(async () => ((await list(owner)).total === 1 ? list(owner) : undefined), 10_000, 'swept');
    expect(again.notifications[0]).toMatchObject({ entity_id: views.coffee, metadata: { batch_id: batchId, result_count: 1 } });
    expect((await list(editor)).total).toBe(1);
    expect((await list(viewer)).total).toBe(1);
    expect((await stream.next(isNotification)).data.id).toBe(again.notifications[0].id);
  });

  it('alerts on a batch added with auto_reindex too', async () => {
    const a = await alertedDataset();
    const { owner, viewer } = a;
    const second = await addBatch(a, [photo('astronaut.png')], true);
    const viewers = await waitFor(async () => ((await list(viewer)).total === 2 ? list(viewer) : undefined), 20_000, 'second alert');
    expect(viewers.notifications[0].metadata).toEqual({ batch_id: second, is_alert: true, view_name: 'everything', dataset_name: 'alerts', result_count: 1 });
    expect((await batchRow(second)).alerts_evaluated_at).not.toBeNull();
    expect((await list(owner)).total).toBe(1);
  });
});

describe('reading and marking read', () => {
  /** Read-only for the tests that share it: both batches alerted, nothing read or deleted. */
  let shared: Alerted;

  beforeAll(async () => {
    shared = await alertedDataset({ second: true });
  }, 120_000);

  it('pages newest first: total, has_more, empty pages past the end', async () => {
    const { viewer } = shared;
    const all = await list(viewer);
    expect(all.total).toBe(2);
    expect(all.notifications.map((n: any) => n.metadata.result_count)).toEqual([1, 2]);
    const first = await list(viewer, '?limit=1');
    expect(first).toMatchObject({ total: 2, has_more: true });
    expect(first.notifications.map((n: any) => n.id)).toEqual([all.notifications[0].id]);
    const second = await list(viewer, '?limit=1&offset=1');
    expect(second).toMatchObject({ total: 2, has_more: false });
    expect(second.notifications.map((n: any) => n.id)).toEqual([all.notifications[1].id]);
    expect(await list(viewer, '?limit=10&offset=2')).toEqual({ notifications: [], total: 2, has_more: false });
    expect(await list(viewer, '?offset=500')).toEqual({ notifications: [], total: 2, has_more: false });
    expect((await list(viewer, `?dataset_id=${otherDatasetId}`)).total).toBe(0);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'unread_only=maybe', 'dataset_id=nope']) {
      const res = await server.api(viewer.token, 'GET', `/api/v1/notifications?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await list(viewer, '?limit=100')).notifications).toHaveLength(2);
  });

  it('marks one read: {ok: true}, then 404 for a second read, another user, or an unknown id', async () => {
    const { owner, editor, views } = await alertedDataset();
    const id = (await list(owner)).notifications[0].id;
    expect((await server.api(editor.token, 'POST', `/api/v1/notifications/${id}/read`)).status).toBe(404);
    expect(await server.api(owner.token, 'POST', `/api/v1/notifications/${id}/read`)).toMatchObject({ status: 200, body: { ok: true } });
    const again = await server.api(owner.token, 'POST', `/api/v1/notifications/${id}/read`);
    expect(again).toMatchObject({ status: 404, body: { detail: expect.any(String) } });
    expect((await server.api(owner.token, 'POST', `/api/v1/notifications/${views.coffee}/read`)).status).toBe(404);
    expect((await server.api(owner.token, 'POST', '/api/v1/notifications/not-a-uuid/read')).status).toBe(422);
    expect(await unread(owner)).toBe(0);
    const after = await list(owner);
    expect(after.notifications[0].read_at).toEqual(expect.any(String));
    expect(await list(owner, '?unread_only=true')).toEqual({ notifications: [], total: 0, has_more: false });
    expect(await unread(editor)).toBe(1);
  });

  it('marks all read, for one dataset or every one: {ok: true, count}', async () => {
    const { editor, viewer, datasetId } = await alertedDataset({ second: true });
    expect(await unread(viewer)).toBe(2);
    const elsewhere = await server.api(viewer.token, 'POST', `/api/v1/notifications/read-all?dataset_id=${otherDatasetId}`);
    expect(elsewhere).toMatchObject({ status: 200, body: { ok: true, count: 0 } });
    expect(await unread(viewer)).toBe(2);
    expect((await server.api(viewer.token, 'POST', `/api/v1/notifications/read-all?dataset_id=${datasetId}`)).body).toEqual({ ok: true, count: 2 });
    expect(await unread(viewer)).toBe(0);
    expect((await server.api(viewer.token, 'POST', '/api/v1/notifications/read-all')).body).toEqual({ ok: true, count: 0 });
    expect((await server.api(editor.token, 'POST', '/api/v1/notifications/read-all')).body).toEqual({ ok: true, count: 1 });
    expect(await unread(editor)).toBe(0);
    expect((await list(viewer, '?unread_only=true')).total).toBe(0);
  });

  it('keeps users apart and offers no way to create a notification', async () => {
    const { owner, viewer, stranger } = shared;
    const ids = (u: TestUser) => list(u).then((page) => page.notifications.map((n: any) => n.user_id));
    expect(new Set(await ids(owner))).toEqual(new Set([owner.user_id]));
    expect(new Set(await ids(viewer))).toEqual(new Set([viewer.user_id]));
    expect((await list(stranger)).notifications).toEqual([]);
    expect((await server.api(stranger.token, 'POST', '/api/v1/notifications/read-all')).body).toEqual({ ok: true, count: 0 });
    expect((await server.api(owner.token, 'POST', '/api/v1/notifications', { title: 'x' })).status).toBe(404);
    expect((await server.api(null, 'GET', '/api/v1/notifications')).status).toBe(401);
    expect((await server.api(null, 'GET', '/api/v1/notifications/unread-count')).status).toBe(401);
  });

  it('deleting a dataset takes its notifications and views along', async () => {
    const { owner, editor, viewer, datasetId } = await alertedDataset({ second: true });
    expect((await list(viewer)).total).toBe(2);
    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${datasetId}`)).status).toBe(204);
    for (const user of [owner, editor, viewer]) expect((await list(user)).total).toBe(0);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from saved_views where dataset_id = ${datasetId}::uuid`.execute(server.loupe.container.database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
