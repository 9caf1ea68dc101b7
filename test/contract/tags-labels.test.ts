import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingLock } from '../support/locks.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { PHOTOS, type UploadFile, createDataset, photo, waitForDataset } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let stranger: TestUser;
/** The common dataset: the six photos, dog.jpg and horses.jpg tagged good and pet; the tests that use it only read it. */
let datasetId: string;
const ids = new Map<string, string>();
/** Two edits of dog.jpg (half size, cropped): near-duplicates that label propagation finds in its cluster. */
let dogEdits: UploadFile[];
let sixPhotos: UploadFile[];

const url = (p: string, id = datasetId) => `/api/v1/dataset/${id}${p}`;
const addTags = (user: TestUser, body: unknown, id = datasetId) => server.api(user.token, 'POST', url('/media/tags', id), body);
const removeTags = (user: TestUser, body: unknown, id = datasetId) => server.api(user.token, 'POST', url('/media/tags/remove', id), body);
const setLabel = (user: TestUser, body: unknown, id = datasetId) => server.api(user.token, 'PUT', url('/media/label', id), body);
const tagList = async (id = datasetId) => (await server.api(owner.token, 'GET', url('/tags', id))).body.tags;
const labelList = async (id = datasetId) => (await server.api(owner.token, 'GET', url('/labels', id))).body;
const head = async (id = datasetId) => (await server.loupe.container.database.db.selectFrom('datasets').select('head_version_id').where('id', '=', id).executeTakeFirstOrThrow()).head_version_id;
const explore = async (query: string, id = datasetId) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${id}?threshold=0&previews_limit=100&${query}`);
  expect(res.status).toBe(200);
  return res.body.clusters.flatMap((c: any) => c.previews) as Array<{ file_name: string; tags: string[]; label: string | null }>;
};
const names = async (query: string, id = datasetId) => (await explore(query, id)).map((p) => p.file_name).sort();
const vql = (filters: unknown[]) => `vql=${encodeURIComponent(JSON.stringify(filters))}`;

const holding = <T>(statement: string, during: () => Promise<T>) => holdingLock(server, statement, during);

/** A dataset of `files` shared with the editor and the viewer like the common one; answers its id and its media ids by file name. */
async function annotated(files: UploadFile[]) {
  const { datasetId: id } = await createDataset(server, owner, 'annotated', [files]);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: viewer.email, role: 'viewer' });
  const list = await server.api(owner.token, 'GET', url('/media?limit=100', id));
  return { id, ids: new Map<string, string>(list.body.media.map((m: any) => [m.file_name, m.media_id])) };
}

/** Tags `files` of `dataset` with `tags` as its owner does (setup: fails the test unless every one changes). */
async function tagged(dataset: { id: string; ids: Map<string, string> }, tags: string[], files: string[]) {
  const res = await addTags(owner, { tags, media_ids: files.map((f) => dataset.ids.get(f)) }, dataset.id);
  expect(res, res.text).toMatchObject({ status: 200, body: { matched: files.length, changed: files.length } });
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, editor, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  const dog = fs.readFileSync(path.join(PHOTOS, 'dog.jpg'));
  dogEdits = [
    { name: 'dog-small.jpg', bytes: await PHOTO_EDITS['half-q30']!(dog) },
    { name: 'dog-crop.jpg', bytes: await PHOTO_EDITS.crop84!(dog) },
  ];
  sixPhotos = [photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg'), photo('kite.jpg'), ...dogEdits];
  const common = await annotated(sixPhotos);
  datasetId = common.id;
  for (const [name, id] of common.ids) ids.set(name, id);
  await tagged(common, ['pet', 'good'], ['dog.jpg', 'horses.jpg']);
}, 180_000);
afterAll(() => server?.close());

describe('tags', () => {
  it('adds tags to listed media as a new version; Explore filters and shows them; the list counts them', async () => {
    const { id, ids } = await annotated([photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]);
    const before = await head(id);
    const res = await addTags(editor, { tags: ['pet', ' good '], media_ids: [ids.get('dog.jpg'), ids.get('horses.jpg')] }, id);
    expect(res).toMatchObject({ status: 200, body: { matched: 2, changed: 2 } });
    expect(await head(id)).not.toBe(before);
    expect(await tagList(id)).toEqual([
      { tag: 'good', count: 2 },
      { tag: 'pet', count: 2 },
    ]);
    expect(await names('tags=pet', id)).toEqual(['dog.jpg', 'horses.jpg']);
    expect(await names(vql([{ tags: { op: 'is', value: 'good' } }]), id)).toEqual(['dog.jpg', 'horses.jpg']);
    const dog = (await explore('file_name=dog.jpg', id)).find((p) => p.file_name === 'dog.jpg')!;
    expect(dog.tags).toEqual(['good', 'pet']);
    expect((await server.api(viewer.token, 'GET', url(`/media/${ids.get('dog.jpg')}`, id))).body).toMatchObject({ tags: ['good', 'pet'], label: null, custom_fields: {} });
  });

  it('the media list pages the head in order, each page with its media\'s tags', async () => {
    const list = async (q: string) => (await server.api(viewer.token, 'GET', url(`/media?${q}`))).body;
    const all = await list('limit=100');
    expect(all.total).toBe(all.media.length);
    const paged = [];
    for (let offset = 0; offset < all.total; offset += 2) {
      const page = await list(`limit=2&offset=${offset}`);
      expect(page.total).toBe(all.total);
      paged.push(...page.media);
    }
    expect(paged.map((m: any) => m.media_id)).toEqual(all.media.map((m: any) => m.media_id));
    expect(paged.find((m: any) => m.file_name === 'dog.jpg')).toMatchObject({ tags: ['good', 'pet'], label: null });
    expect((await list(`limit=2&offset=${all.total}`)).media).toEqual([]);
  });

  it('changes nothing (and makes no version) when the media already carry the tags', async () => {
    const before = await head();
    expect((await addTags(owner, { tags: ['pet'], media_ids: [ids.get('dog.jpg')] })).body).toEqual({ matched: 1, changed: 0 });
    expect(await head()).toBe(before);
  });

  it('tags every media an Explore query matches, and removes tags by query', async () => {
    const dataset = await annotated(sixPhotos);
    const id = dataset.id;
    await tagged(dataset, ['pet'], ['dog.jpg', 'horses.jpg']);
    expect((await addTags(owner, { tags: ['all'], query: {} }, id)).body).toEqual({ matched: 6, changed: 6 });
    expect((await addTags(owner, { tags: ['people'], query: { file_name: 'person' } }, id)).body).toEqual({ matched: 1, changed: 1 });
    expect((await removeTags(owner, { tags: ['all', 'nothing-has-this'], query: { tags: 'pet' } }, id)).body).toEqual({ matched: 2, changed: 2 });
    expect((await tagList(id)).find((t: any) => t.tag === 'all')).toEqual({ tag: 'all', count: 4 });
  });

  it('refuses viewers (403), strangers (404), bad selections (422) and unknown media (422), changing nothing', async () => {
    const before = await head();
    expect(await addTags(viewer, { tags: ['x'], media_ids: [ids.get('dog.jpg')] })).toMatchObject({ status: 403, body: { detail: expect.stringContaining('permission') } });
    expect(await addTags(stranger, { tags: ['x'], media_ids: [ids.get('dog.jpg')] })).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    expect(await addTags(owner, { tags: ['x'] })).toMatchObject({ status: 422, body: { detail: expect.stringContaining('exactly one of') } });
    expect(await addTags(owner, { tags: ['x'], media_ids: [ids.get('dog.jpg')], cluster_ids: [ids.get('dog.jpg')] })).toMatchObject({ status: 422 });
    expect(await addTags(owner, { tags: ['  '], media_ids: [ids.get('dog.jpg')] })).toMatchObject({ status: 422, body: { detail: expect.stringContaining('tags must be') } });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await addTags(owner, { tags: ['x'], media_ids: [ids.get('dog.jpg'), unknown] })).toMatchObject({ status: 422, body: { detail: `Unknown media_ids in this dataset: ${unknown}` } });
    expect(await addTags(owner, { tags: ['x'], query: { vql: '[{"tags": 1}]' } })).toMatchObject({ status: 422 });
    expect(await head()).toBe(before);
    expect((await tagList()).map((t: any) => t.tag)).not.toContain('x');
  });
});

describe('labels', () => {
  it('sets a label on every member of a cluster, lists labels with counts, filters on them, and removes them with null', async () => {
    const { id, ids } = await annotated([photo('dog.jpg'), photo('horses.jpg')]);
    const clusters = (await server.api(owner.token, 'GET', `/api/v1/explore/${id}?threshold=0&file_name=horses`)).body.clusters;
    const res = await setLabel(editor, { label: 'horse', cluster_ids: [clusters[0].cluster_id] }, id);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBeGreaterThanOrEqual(1);
    expect(await names('labels=horse', id)).toContain('horses.jpg');
    expect(await names(vql([{ labels: { op: 'one_of', value: ['horse', 'zebra'] } }]), id)).toContain('horses.jpg');
    const explored = (await server.api(owner.token, 'GET', `/api/v1/explore/${id}?threshold=0&labels=horse`)).body.clusters[0];
    expect(explored.labels).toEqual(['horse']);
    expect((await labelList(id)).labels).toEqual([{ label: 'horse', count: res.body.changed }]);
    expect((await setLabel(owner, { label: null, media_ids: [ids.get('horses.jpg')] }, id)).body).toEqual({ matched: 1, changed: 1 });
    expect(await names('labels=horse', id)).not.toContain('horses.jpg');
  });

  it('answers 422 for an unknown cluster id and for a label that is too long', async () => {
    expect(await setLabel(owner, { label: 'a', cluster_ids: ['00000000-0000-4000-8000-000000000000'] })).toMatchObject({ status: 422, body: { detail: expect.stringContaining('Unknown cluster_id') } });
    expect((await setLabel(owner, { label: 'a'.repeat(201), media_ids: [ids.get('dog.jpg')] })).status).toBe(422);
  });

  it('a saved view can filter on tags and labels and counts what matches now', async () => {
    const dataset = await annotated([photo('person.jpg'), photo('kite.jpg')]);
    const { id, ids } = dataset;
    await tagged(dataset, ['people'], ['person.jpg']);
    const view = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/views?${vql([{ tags: { op: 'is', value: 'people' } }])}`, { name: 'People' });
    expect(view).toMatchObject({ status: 200, body: { total_results: 1 } });
    await addTags(owner, { tags: ['people'], media_ids: [ids.get('kite.jpg')] }, id);
    const list = (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}/views`)).body.views;
    expect(list.find((v: any) => v.id === view.body.id).total_results).toBe(2);
  });
});

describe('label propagation', () => {
  it('counts first (dry run), then labels the unlabelled members of clusters as a LABEL_PROPAGATION task', async () => {
    const { id, ids } = await annotated([photo('dog.jpg'), photo('horses.jpg'), ...dogEdits]);
    await setLabel(owner, { label: 'dog', media_ids: [ids.get('dog.jpg')] }, id);
    const plan = await server.api(owner.token, 'POST', url('/labels/propagate', id), { threshold: 4, dry_run: true });
    expect(plan.status).toBe(200);
    expect(plan.body.clusters).toBeGreaterThanOrEqual(1);
    expect(plan.body.media).toBeGreaterThanOrEqual(1);
    expect(await names('labels=dog', id)).toEqual(['dog.jpg']);
    const started = await server.api(editor.token, 'POST', url('/labels/propagate', id), { threshold: 4 });
    expect(started.status).toBe(202);
    const task = await waitForTask(server, owner, id, started.body.task_id, hasStatus('COMPLETED'), 'propagation done', 30_000);
    expect(task).toMatchObject({ task_type: 'LABEL_PROPAGATION', status_message: expect.stringContaining(`Labelled ${plan.body.media} media`) });
    const labelled = await names('labels=dog', id);
    expect(labelled).toHaveLength(1 + plan.body.media);
    expect(labelled).toEqual(expect.arrayContaining(['dog-crop.jpg', 'dog-small.jpg', 'dog.jpg']));
    expect(await server.api(viewer.token, 'POST', url('/labels/propagate', id), { threshold: 4 })).toMatchObject({ status: 403 });
    expect(await server.api(owner.token, 'POST', url('/labels/propagate', id), { threshold: 5 })).toMatchObject({ status: 422 });
  });

  it('blocks snapshot creation, restore and a second propagation while it runs (409)', async () => {
    // The propagation waits on the lock (its commit forks the head as a delta: a version_bases row) whether or not it finds media to label.
    const { id } = await annotated([photo('dog.jpg')]);
    const snapshot = (await server.api(owner.token, 'GET', url('/snapshot', id))).body[0];
    await holding('lock table version_bases in access exclusive mode', async () => {
      const started = await server.api(owner.token, 'POST', url('/labels/propagate', id), { threshold: 4 });
      expect(started.status).toBe(202);
      await waitForTask(server, owner, id, started.body.task_id, hasStatus('RUNNING'), 'propagation running');
      expect(await server.api(owner.token, 'POST', url('/snapshot', id), { name: 'during' })).toEqual(
        expect.objectContaining({ status: 409, body: { detail: "Operation 'create_snapshot' is blocked while LABEL_PROPAGATION task is running" } }),
      );
      expect((await server.api(owner.token, 'POST', url(`/snapshot/${snapshot.snapshot_id}/restore`, id))).status).toBe(409);
      expect((await server.api(owner.token, 'POST', url('/labels/propagate', id), { threshold: 4 })).status).toBe(409);
    });
    await waitFor(async () => ((await server.api(owner.token, 'POST', url('/snapshot', id), { name: 'after' })).status === 200 ? true : undefined), 30_000, 'snapshot after');
  });
});

describe('snapshots capture tags and labels', () => {
  it('a restore brings back the tags and labels of the snapshot; edits during the restore get 409', async () => {
    const dataset = await annotated([photo('dog.jpg'), photo('horses.jpg')]);
    const { id, ids } = dataset;
    await tagged(dataset, ['pet', 'good'], ['dog.jpg', 'horses.jpg']);
    expect((await setLabel(owner, { label: 'dog', media_ids: [ids.get('dog.jpg')] }, id)).status).toBe(200);
    const snap = await server.api(owner.token, 'POST', url('/snapshot', id), { name: 'tagged' });
    expect(snap.status).toBe(200);
    const before = { tags: await tagList(id), labels: await labelList(id) };
    await addTags(owner, { tags: ['later'], query: {} }, id);
    await removeTags(owner, { tags: ['pet'], query: {} }, id);
    await setLabel(owner, { label: 'thing', query: {} }, id);
    expect((await tagList(id)).map((t: any) => t.tag)).toContain('later');

    await holding(`select id from snapshots where id = '${snap.body.snapshot_id}' for update`, async () => {
      expect((await server.api(owner.token, 'POST', url(`/snapshot/${snap.body.snapshot_id}/restore`, id))).status).toBe(202);
      expect(await addTags(owner, { tags: ['y'], media_ids: [ids.get('dog.jpg')] }, id)).toMatchObject({
        status: 409,
        body: { detail: "Operation 'edit_annotations' is blocked while SNAPSHOT_RESTORE task is running" },
      });
      expect((await setLabel(owner, { label: 'y', media_ids: [ids.get('dog.jpg')] }, id)).status).toBe(409);
    });
    await waitForDataset(server, owner, id, ['READY']);
    expect(await tagList(id)).toEqual(before.tags);
    expect(await labelList(id)).toEqual(before.labels);
  });
});
