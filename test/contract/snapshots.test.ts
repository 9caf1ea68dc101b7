import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;
let otherDatasetId: string;

const NAME = 'snapshot-lifecycle';
const snapshots = async (id = datasetId, user = owner) => (await server.api(user.token, 'GET', `/api/v1/dataset/${id}/snapshot`)).body as any[];
const dataset = async (id = datasetId, user = owner) => (await server.api(user.token, 'GET', `/api/v1/dataset/${id}`)).body;
const waitStatus = (id: string, statuses: string[], user = owner) => waitForDataset(server, user, id, statuses);
const fileNames = async (id: string, user = owner) => {
  const res = await server.api(user.token, 'GET', `/api/v1/explore/${id}?threshold=0&previews_limit=1000`);
  return res.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort();
};
const latestTask = async (id: string, type: string, user = owner) =>
  (await server.api(user.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=${type}`)).body.tasks[0];
const addMediaAndReindex = async (id: string, files: ReturnType<typeof photo>[], user = owner) => {
  const body = form(files);
  body.append('auto_reindex', 'true');
  const res = await server.api(user.token, 'POST', `/api/v1/dataset/${id}/add_media`, body);
  expect(res.status).toBe(202);
  await waitFor(async () => ((await latestTask(id, 'MEDIA_ADDITION', user))?.status === 'COMPLETED' ? true : undefined), 60_000, 'media added');
  return waitStatus(id, ['READY'], user);
};

/** The tests that change a dataset each make their own, shared with the editor and the viewer like the common one. */
const lifecycleDataset = async () => {
  const { datasetId: id } = await createDataset(server, owner, NAME, [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: viewer.email });
  await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/share`, { user_email: editor.email, role: 'editor' });
  return id;
};

beforeAll(async () => {
  server = await startTestServer();
  [owner, editor, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  ({ datasetId } = await createDataset(server, owner, NAME, [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]));
  ({ datasetId: otherDatasetId } = await createDataset(server, owner, 'other', [[photo('kite.jpg')]]));
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
  await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: editor.email, role: 'editor' });
}, 180_000);
afterAll(() => server?.close());

describe('the snapshot lifecycle (spec 4.1)', () => {
  it('a dataset gets its creation snapshot when it first becomes READY', async () => {
    const id = await lifecycleDataset();
    const list = await snapshots(id);
    expect(list).toHaveLength(1);
    const creationId = list[0].snapshot_id;
    expect(list[0]).toEqual({
      snapshot_id: creationId,
      snapshot_name: `${NAME}_snapshot_${creationId}`,
      source_dataset_name: NAME,
      created_at: expect.any(String),
      created_by: owner.email,
      n_images: 3,
      n_videos: 0,
      description: '',
      reason: 'creation',
      training_model_id: null,
      training_model_name: null,
      is_current: true,
      is_restoring: false,
    });
  });

  it('creates a manual snapshot that becomes current, with defaults when no body is sent', async () => {
    const id = await lifecycleDataset();
    const creationId = (await snapshots(id))[0].snapshot_id;
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`);
    expect(res.status).toBe(200);
    const manualId = res.body.snapshot_id;
    expect(res.body).toMatchObject({ snapshot_name: `${NAME}_snapshot_${manualId}`, description: '', reason: 'manual', is_current: true, n_images: 3 });
    const list = await snapshots(id);
    expect(list.map((s) => s.snapshot_id)).toEqual([manualId, creationId]);
    expect(list.map((s) => s.is_current)).toEqual([true, false]);
  });

  it('takes a name and a description; an editor may create one', async () => {
    const id = await lifecycleDataset();
    const res = await server.api(editor.token, 'POST', `/api/v1/dataset/${id}/snapshot`, { name: 'by editor', description: 'why' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ snapshot_name: 'by editor', description: 'why', created_by: editor.email, is_current: true });
    expect((await snapshots(id)).filter((s) => s.is_current).map((s) => s.snapshot_id)).toEqual([res.body.snapshot_id]);
  });

  it('renames and re-describes without touching the data; neither field is a 422', async () => {
    const id = await lifecycleDataset();
    const manualId = (await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`)).body.snapshot_id;
    const renamed = await server.api(owner.token, 'PATCH', `/api/v1/dataset/${id}/snapshot/${manualId}`, { name: 'baseline' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ snapshot_id: manualId, snapshot_name: 'baseline', description: '', n_images: 3, reason: 'manual' });
    const described = await server.api(owner.token, 'PATCH', `/api/v1/dataset/${id}/snapshot/${manualId}`, { description: 'three photos' });
    expect(described.body).toMatchObject({ snapshot_name: 'baseline', description: 'three photos' });
    for (const body of [{}, { name: '' }, { name: '   ' }, { other: 1 }]) {
      const res = await server.api(owner.token, 'PATCH', `/api/v1/dataset/${id}/snapshot/${manualId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await snapshots(id)).find((s) => s.snapshot_id === manualId)).toMatchObject({ snapshot_name: 'baseline', description: 'three photos' });
  });

  it('restores an earlier snapshot after media were added: counts and media come back, and it becomes current', async () => {
    const id = await lifecycleDataset();
    const manualId = (await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`)).body.snapshot_id;
    const grown = await addMediaAndReindex(id, [photo('coffee.png'), photo('chelsea.png')]);
    expect(grown).toMatchObject({ status_new: 'READY', n_images: 5 });
    expect(await fileNames(id)).toHaveLength(5);

    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot/${manualId}/restore`);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const task = await latestTask(id, 'SNAPSHOT_RESTORE');
    expect(task).toMatchObject({ dataset_id: id, task_type: 'SNAPSHOT_RESTORE' });
    await waitForTask(server, owner, id, task.task_id, hasStatus('COMPLETED'), 'restore', 30_000);
    expect(await waitStatus(id, ['READY'])).toMatchObject({ n_images: 3, n_videos: 0, status_new: 'READY' });
    expect(await fileNames(id)).toEqual(['dog.jpg', 'horses.jpg', 'person.jpg']);
    const list = await snapshots(id);
    expect(list.find((s) => s.snapshot_id === manualId)).toMatchObject({ is_current: true, is_restoring: false });
    expect(list.filter((s) => s.is_current)).toHaveLength(1);
  });

  it('restores `current`, the current snapshot', async () => {
    const id = await lifecycleDataset();
    await addMediaAndReindex(id, [photo('astronaut.png')]);
    expect((await dataset(id)).n_images).toBe(4);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot/current/restore`);
    expect(res.status).toBe(202);
    const task = await latestTask(id, 'SNAPSHOT_RESTORE');
    await waitForTask(server, owner, id, task.task_id, hasStatus('COMPLETED'), 'restore current', 30_000);
    expect(await waitStatus(id, ['READY'])).toMatchObject({ n_images: 3 });
  });

  it('soft-deletes a snapshot that is not current; the current one is a 409', async () => {
    const id = await lifecycleDataset();
    const creationId = (await snapshots(id))[0].snapshot_id;
    const manualId = (await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`)).body.snapshot_id;
    const current = await server.api(owner.token, 'DELETE', `/api/v1/dataset/${id}/snapshot/${manualId}`);
    expect(current.status).toBe(409);
    expect(current.body.detail).toMatch(/current snapshot cannot be deleted/);

    const res = await server.api(owner.token, 'DELETE', `/api/v1/dataset/${id}/snapshot/${creationId}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await snapshots(id)).map((s) => s.snapshot_id)).not.toContain(creationId);
    for (const [method, route] of [
      ['DELETE', ''],
      ['PATCH', ''],
      ['POST', '/restore'],
      ['POST', '/clone'],
    ] as const) {
      const again = await server.api(owner.token, method, `/api/v1/dataset/${id}/snapshot/${creationId}${route}`, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(again.status, `${method} ${route}`).toBe(404);
    }
    expect((await dataset(id)).n_images).toBe(3);
  });
});

describe('clone (spec 4.1 rule 4)', () => {
  it('makes an independent dataset "<name> (cloned)" owned by the caller, with a clone snapshot; both sides change alone', async () => {
    const id = await lifecycleDataset();
    const source = (await snapshots(id)).find((s) => s.is_current);
    const before = (await server.api(editor.token, 'GET', '/api/v1/datasets')).body.map((d: { id: string }) => d.id);
    const res = await server.api(editor.token, 'POST', `/api/v1/dataset/${id}/snapshot/${source.snapshot_id}/clone`);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');

    const mine = (await server.api(editor.token, 'GET', '/api/v1/datasets')).body;
    const clone = mine.find((d: { id: string }) => !before.includes(d.id));
    expect(clone).toMatchObject({ display_name: `${NAME} (cloned)`, source_dataset_id: id, created_by: editor.email });
    const task = await latestTask(clone.id, 'SNAPSHOT_CLONE', editor);
    expect(task).toMatchObject({ dataset_id: clone.id, dataset_name: `${NAME} (cloned)`, created_by: editor.email });
    expect((await latestTask(id, 'SNAPSHOT_CLONE'))).toBeUndefined();
    await waitForTask(server, editor, clone.id, task.task_id, hasStatus('COMPLETED'), 'clone', 30_000);

    expect(await waitStatus(clone.id, ['READY'], editor)).toMatchObject({ n_images: source.n_images, n_videos: 0 });
    expect(await fileNames(clone.id, editor)).toEqual(await fileNames(id));
    const cloneSnapshots = await snapshots(clone.id, editor);
    expect(cloneSnapshots).toHaveLength(1);
    expect(cloneSnapshots[0]).toMatchObject({ reason: 'clone', is_current: true, source_dataset_name: `${NAME} (cloned)`, n_images: source.n_images, created_by: editor.email });
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${clone.id}`)).status).toBe(404);

    await addMediaAndReindex(clone.id, [photo('coffee.png')], editor);
    expect((await dataset(clone.id, editor)).n_images).toBe(source.n_images + 1);
    expect((await dataset(id)).n_images).toBe(source.n_images);

    await addMediaAndReindex(id, [photo('chelsea.png')]);
    expect((await dataset(id)).n_images).toBe(source.n_images + 1);
    expect(await fileNames(clone.id, editor)).toEqual(['coffee.png', 'dog.jpg', 'horses.jpg', 'person.jpg']);

    // Deleting the snapshot it came from leaves the clone whole.
    await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`, { name: 'newer' });
    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${id}/snapshot/${source.snapshot_id}`)).status).toBe(200);
    expect(await fileNames(clone.id, editor)).toHaveLength(4);
  });

  it('a clone can be explored at once: it shares the snapshot\'s index', async () => {
    const id = await lifecycleDataset();
    const list = await snapshots(id);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot/${list[0].snapshot_id}/clone`);
    expect(res.status).toBe(202);
    const clone = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.find((d: { source_dataset_id: string | null; id: string }) => d.source_dataset_id === id);
    await waitStatus(clone.id, ['READY']);
    const explore = await server.api(owner.token, 'GET', `/api/v1/explore/${clone.id}?threshold=4`);
    expect(explore.status).toBe(200);
    expect(explore.body.clusters.length).toBeGreaterThan(0);
  });
});

describe('access (spec 4.1 rule 6, section 5)', () => {
  const routes = (id: string, snapshotId: string) =>
    [
      ['POST', `/api/v1/dataset/${id}/snapshot`, { name: 'x' }],
      ['PATCH', `/api/v1/dataset/${id}/snapshot/${snapshotId}`, { name: 'x' }],
      ['POST', `/api/v1/dataset/${id}/snapshot/${snapshotId}/restore`, undefined],
      ['POST', `/api/v1/dataset/${id}/snapshot/${snapshotId}/clone`, undefined],
      ['DELETE', `/api/v1/dataset/${id}/snapshot/${snapshotId}`, undefined],
    ] as const;

  it('a viewer lists (200) but every change is a 403', async () => {
    const list = await snapshots(datasetId, viewer);
    expect(list.length).toBeGreaterThan(0);
    const snapshotId = list[list.length - 1].snapshot_id;
    for (const [method, route, body] of routes(datasetId, snapshotId)) {
      const res = await server.api(viewer.token, method, route, body);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body.detail).toEqual(expect.any(String));
    }
  });

  it('a stranger gets 404 everywhere, as for an unknown dataset; no token is a 401', async () => {
    const snapshotId = (await snapshots())[0].snapshot_id;
    expect((await server.api(stranger.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).status).toBe(404);
    for (const [method, route, body] of routes(datasetId, snapshotId)) {
      expect((await server.api(stranger.token, method, route, body)).status, `${method} ${route}`).toBe(404);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${unknown}/snapshot`)).body).toEqual({ detail: 'Dataset not found' });
    expect((await server.api(null, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).status).toBe(401);
  });

  it("a snapshot of another dataset is a 404 on this one's routes", async () => {
    const foreign = (await snapshots(otherDatasetId))[0].snapshot_id;
    for (const [method, route, body] of routes(datasetId, foreign).slice(1)) {
      const res = await server.api(owner.token, method, route, body);
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Snapshot not found' });
    }
    expect((await snapshots(otherDatasetId)).map((s) => s.snapshot_id)).toEqual([foreign]);
  });

  it('a malformed snapshot id is a 422', async () => {
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/not-a-uuid/restore`);
    expect(res.status).toBe(422);
  });
});
