import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingLock } from '../support/locks.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, generatedJpegs, photo, waitForDataset } from '../support/ingest.js';
import { hasStatus, newDataset, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;

const snapshots = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}/snapshot`)).body as any[];
const dataset = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body;
const waitStatus = (id: string, statuses: string[]) => waitForDataset(server, owner, id, statuses);
const latestTask = async (id: string, type: string) => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=${type}`)).body.tasks[0];
const createSnapshot = (id: string, body?: unknown) => server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot`, body);
const restore = (id: string, snapshotId: string) => server.api(owner.token, 'POST', `/api/v1/dataset/${id}/snapshot/${snapshotId}/restore`);
const addMedia = (id: string, files: FormData) => server.api(owner.token, 'POST', `/api/v1/dataset/${id}/add_media`, files);
const previewNames = async (id: string) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${id}?threshold=0&previews_limit=1000`);
  expect(res.status).toBe(200);
  return res.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort();
};
/** Each test that restores, clones, adds or snapshots gets a READY dataset of its own, so none sees another's changes. */
const guarded = async (photos = ['dog.jpg']) => (await createDataset(server, owner, 'guarded', [photos.map(photo)])).datasetId;

/**
 * Holds a snapshot's row the way a long restore or clone would be held: their commit waits for it
 * (they take it FOR SHARE first), while every API route, which never locks it, keeps answering.
 */
const holdingSnapshot = <T>(snapshotId: string, during: () => Promise<T>) =>
  holdingLock(server, sql`select id from snapshots where id = ${snapshotId}::uuid for update`, during);

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
}, 120_000);
afterAll(() => server?.close());

describe('while a restore runs (spec 3.1)', () => {
  it('the dataset is READ ONLY, the snapshot is_restoring, changes get 409 and reads serve the pre-restore data', async () => {
    const datasetId = await guarded(['dog.jpg', 'horses.jpg']);
    const creation = (await snapshots(datasetId))[0];
    const grown = addMedia(datasetId, (() => {
      const body = form([photo('kite.jpg')]);
      body.append('auto_reindex', 'true');
      return body;
    })());
    expect((await grown).status).toBe(202);
    await waitFor(async () => ((await latestTask(datasetId, 'MEDIA_ADDITION'))?.status === 'COMPLETED' ? true : undefined), 60_000, 'media added');
    await waitStatus(datasetId, ['READY']);
    const manual = (await createSnapshot(datasetId, { name: 'three' })).body;

    await holdingSnapshot(creation.snapshot_id, async () => {
      expect((await restore(datasetId, creation.snapshot_id)).status).toBe(202);
      const during = await dataset(datasetId);
      expect(during).toMatchObject({ status_new: 'READ ONLY', status: 'UPDATING', n_images: 3 });
      const task = await latestTask(datasetId, 'SNAPSHOT_RESTORE');
      expect(task).toMatchObject({ dataset_id: datasetId, dataset_status: 'READ_ONLY' });
      expect(['INITIALIZING', 'RUNNING']).toContain(task.status);
      const list = await snapshots(datasetId);
      expect(list.find((s) => s.snapshot_id === creation.snapshot_id)).toMatchObject({ is_restoring: true, is_current: false });
      expect(list.find((s) => s.snapshot_id === manual.snapshot_id)).toMatchObject({ is_restoring: false, is_current: true });

      expect(await previewNames(datasetId)).toEqual(['dog.jpg', 'horses.jpg', 'kite.jpg']);
      expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.total).toBe(3);

      const another = await restore(datasetId, manual.snapshot_id);
      expect(another.status).toBe(409);
      expect(another.body.detail).toBe("Operation 'restore_snapshot' is blocked while SNAPSHOT_RESTORE task is running");
      expect((await createSnapshot(datasetId)).body.detail).toBe("Operation 'create_snapshot' is blocked while SNAPSHOT_RESTORE task is running");
      const media = await addMedia(datasetId, form([photo('coffee.png')]));
      expect(media.status).toBe(409);
      expect(media.body.detail).toBe("Operation 'add_media' is blocked while SNAPSHOT_RESTORE task is running");
      expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`)).status).toBe(409);
      const deleting = await server.api(owner.token, 'DELETE', `/api/v1/dataset/${datasetId}/snapshot/${creation.snapshot_id}`);
      expect(deleting.status).toBe(409);
      // A clone reads a sealed snapshot: the status table refuses it from READ ONLY, nothing else.
      expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${manual.snapshot_id}/clone`)).status).toBe(409);
    });

    const task = await latestTask(datasetId, 'SNAPSHOT_RESTORE');
    await waitForTask(server, owner, datasetId, task.task_id, hasStatus('COMPLETED'), 'restore', 30_000);
    expect(await waitStatus(datasetId, ['READY'])).toMatchObject({ n_images: 2 });
    expect(await previewNames(datasetId)).toEqual(['dog.jpg', 'horses.jpg']);
  });

  it('a clone made from this dataset blocks its restore until it ends, but nothing else', async () => {
    const datasetId = await guarded();
    const [latest] = await snapshots(datasetId);
    await holdingSnapshot(latest.snapshot_id, async () => {
      expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${latest.snapshot_id}/clone`)).status).toBe(202);
      const blocked = await restore(datasetId, latest.snapshot_id);
      expect(blocked.status).toBe(409);
      expect(blocked.body.detail).toBe("Operation 'restore_snapshot' is blocked while SNAPSHOT_CLONE task is running");
      expect((await createSnapshot(datasetId, { name: 'during clone' })).status).toBe(200);
      expect((await dataset(datasetId)).status_new).toBe('READY');
    });
    const clone = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.find((d: { source_dataset_id: string | null }) => d.source_dataset_id === datasetId);
    expect(await waitStatus(clone.id, ['READY'])).toMatchObject({ n_images: latest.n_images, display_name: 'guarded (cloned)' });
    expect((await restore(datasetId, latest.snapshot_id)).status).toBe(202);
    await waitStatus(datasetId, ['READY']);
  });
});

describe('status rules (spec 4.1 rules 1 and 3)', () => {
  it('create needs READY: PARTIAL INDEX is a 409, and so is a running media addition', async () => {
    const datasetId = await guarded();
    const files = await generatedJpegs(6, { width: 640, height: 480 });
    const before = (await dataset(datasetId)).n_images;
    expect((await addMedia(datasetId, form(files))).status).toBe(202);
    const during = await createSnapshot(datasetId);
    expect(during.status).toBe(409);
    expect(during.body.detail).toBe("Operation 'create_snapshot' is blocked while MEDIA_ADDITION task is running");
    const restoring = await restore(datasetId, 'current');
    expect(restoring.status).toBe(409);
    expect(restoring.body.detail).toBe("Operation 'restore_snapshot' is blocked while MEDIA_ADDITION task is running");

    expect(await waitStatus(datasetId, ['PARTIAL INDEX'])).toMatchObject({ n_images: before + 6 });
    const partial = await createSnapshot(datasetId);
    expect(partial.status).toBe(409);
    expect(partial.body.detail).toBe("Operation 'create_snapshot' needs the dataset READY; it is PARTIAL INDEX");
  });

  it('restore is accepted from PARTIAL INDEX, and `current` goes back to the current snapshot', async () => {
    // Its own dataset, brought to PARTIAL INDEX by a batch added without a reindex.
    const datasetId = await guarded();
    expect((await addMedia(datasetId, form([photo('horses.jpg')]))).status).toBe(202);
    await waitStatus(datasetId, ['PARTIAL INDEX']);
    const current = (await snapshots(datasetId)).find((s) => s.is_current);
    expect((await restore(datasetId, 'current')).status).toBe(202);
    expect(await waitStatus(datasetId, ['READY'])).toMatchObject({ n_images: current.n_images });
  });

  it('a dataset that was never indexed has nothing to snapshot or restore', async () => {
    const empty = await newDataset(server, owner, 'empty');
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${empty}/snapshot`)).body).toEqual([]);
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${empty}/snapshot`)).status).toBe(409);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${empty}/snapshot/current/restore`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Dataset has no current snapshot' });
  });
});

describe('datasets without snapshot support (spec 2.1, 4.1 rule 6)', () => {
  it('answer 403 on every snapshot route when SNAPSHOTS_ENABLED was off at their creation', async () => {
    const off = await startTestServer({ env: { SNAPSHOTS_ENABLED: 'false' } });
    try {
      const user = await off.createUser();
      const id = (await off.api(user.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=legacy')).body.dataset_id;
      const some = '00000000-0000-4000-8000-000000000000';
      for (const [method, route, body] of [
        ['GET', `/api/v1/dataset/${id}/snapshot`, undefined],
        ['POST', `/api/v1/dataset/${id}/snapshot`, { name: 'x' }],
        ['PATCH', `/api/v1/dataset/${id}/snapshot/${some}`, { name: 'x' }],
        ['POST', `/api/v1/dataset/${id}/snapshot/current/restore`, undefined],
        ['POST', `/api/v1/dataset/${id}/snapshot/${some}/clone`, undefined],
        ['DELETE', `/api/v1/dataset/${id}/snapshot/${some}`, undefined],
      ] as const) {
        const res = await off.api(user.token, method, route, body);
        expect(res.status, `${method} ${route}`).toBe(403);
        expect(res.body).toEqual({ detail: 'Snapshots are not enabled for this dataset' });
      }
    } finally {
      await off.close();
    }
  });
});
