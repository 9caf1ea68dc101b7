import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingLock } from '../support/locks.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { PHOTOS, createDataset, photo, waitForDataset } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;
const ids = new Map<string, string>();

const url = (p: string) => `/api/v1/dataset/${datasetId}${p}`;
const addTags = (user: TestUser, body: unknown) => server.api(user.token, 'POST', url('/media/tags'), body);
const removeTags = (user: TestUser, body: unknown) => server.api(user.token, 'POST', url('/media/tags/remove'), body);
const setLabel = (user: TestUser, body: unknown) => server.api(user.token, 'PUT', url('/media/label'), body);
const tagList = async () => (await server.api(owner.token, 'GET', url('/tags'))).body.tags;
const labelList = async () => (await server.api(owner.token, 'GET', url('/labels'))).body;
const head = async () => (await server.loupe.container.database.db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow()).head_version_id;
const explore = async (query: string) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0&previews_limit=100&${query}`);
  expect(res.status).toBe(200);
  return res.body.clusters.flatMap((c: any) => c.previews) as Array<{ file_name: string; tags: string[]; label: string | null }>;
};
const names = async (query: string) => (await explore(query)).map((p) => p.file_name).sort();
const vql = (filters: unknown[]) => `vql=${encodeURIComponent(JSON.stringify(filters))}`;

const holding = <T>(statement: string, during: () => Promise<T>) => holdingLock(server, statement, during);

beforeAll(async () => {
  server = await startTestServer();
  [owner, editor, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  const dog = fs.readFileSync(path.join(PHOTOS, 'dog.jpg'));
  const edits = [
    { name: 'dog-small.jpg', bytes: await PHOTO_EDITS['half-q30']!(dog) },
    { name: 'dog-crop.jpg', bytes: await PHOTO_EDITS.crop84!(dog) },
  ];
  ({ datasetId } = await createDataset(server, owner, 'annotated', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg'), photo('kite.jpg'), ...edits]]));
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email, role: 'viewer' });
  const list = await server.api(owner.token, 'GET', url('/media?limit=100'));
  for (const m of list.body.media ?? list.body.items) ids.set(m.file_name, m.media_id ?? m.id);
}, 180_000);
afterAll(() => server?.close());

describe('tags', () => {
  it('adds tags to listed media as a new version; Explore filters and shows them; the list counts them', async () => {
    const before = await head();
    const res = await addTags(editor, { tags: ['pet', ' good '], media_ids: [ids.get('dog.jpg'), ids.get('horses.jpg')] });
    expect(res).toMatchObject({ status: 200, body: { matched: 2, changed: 2 } });
    expect(await head()).not.toBe(before);
    expect(await tagList()).toEqual([
      { tag: 'good', count: 2 },
      { tag: 'pet', count: 2 },
    ]);
    expect(await names('tags=pet')).toEqual(['dog.jpg', 'horses.jpg']);
    expect(await names(vql([{ tags: { op: 'is', value: 'good' } }]))).toEqual(['dog.jpg', 'horses.jpg']);
    const dog = (await explore('file_name=dog.jpg')).find((p) => p.file_name === 'dog.jpg')!;
    expect(dog.tags).toEqual(['good', 'pet']);
    expect((await server.api(viewer.token, 'GET', url(`/media/${ids.get('dog.jpg')}`))).body).toMatchObject({ tags: ['good', 'pet'], label: null, custom_fields: {} });
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
    expect((await addTags(owner, { tags: ['all'], query: {} })).body).toEqual({ matched: 6, changed: 6 });
    expect((await addTags(owner, { tags: ['people'], query: { file_name: 'person' } })).body).toEqual({ matched: 1, changed: 1 });
    expect((await removeTags(owner, { tags: ['all', 'nothing-has-this'], query: { tags: 'pet' } })).body).toEqual({ matched: 2, changed: 2 });
    expect((await tagList()).find((t: any) => t.tag === 'all')).toEqual({ tag: 'all', count: 4 });
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
    const clusters = (await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0&file_name=horses`)).body.clusters;
    const res = await setLabel(editor, { label: 'horse', cluster_ids: [clusters[0].cluster_id] });
    expect(res.status).toBe(200);
    expect(res.body.changed).toBeGreaterThanOrEqual(1);
    expect(await names('labels=horse')).toContain('horses.jpg');
    expect(await names(vql([{ labels: { op: 'one_of', value: ['horse', 'zebra'] } }]))).toContain('horses.jpg');
    const explored = (await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0&labels=horse`)).body.clusters[0];
    expect(explored.labels).toEqual(['horse']);
    expect((await labelList()).labels).toEqual([{ label: 'horse', count: res.body.changed }]);
    expect((await setLabel(owner, { label: null, media_ids: [ids.get('horses.jpg')] })).body).toEqual({ matched: 1, changed: 1 });
    expect(await names('labels=horse')).not.toContain('horses.jpg');
  });

  it('answers 422 for an unknown cluster id and for a label that is too long', async () => {
    expect(await setLabel(owner, { label: 'a', cluster_ids: ['00000000-0000-4000-8000-000000000000'] })).toMatchObject({ status: 422, body: { detail: expect.stringContaining('Unknown cluster_id') } });
    expect((await setLabel(owner, { label: 'a'.repeat(201), media_ids: [ids.get('dog.jpg')] })).status).toBe(422);
  });

  it('a saved view can filter on tags and labels and counts what matches now', async () => {
    const view = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/views?${vql([{ tags: { op: 'is', value: 'people' } }])}`, { name: 'People' });
    expect(view).toMatchObject({ status: 200, body: { total_results: 1 } });
    await addTags(owner, { tags: ['people'], media_ids: [ids.get('kite.jpg')] });
    const list = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/views`)).body.views;
    expect(list.find((v: any) => v.id === view.body.id).total_results).toBe(2);
  });
});

describe('label propagation', () => {
  it('counts first (dry run), then labels the unlabelled members of clusters as a LABEL_PROPAGATION task', async () => {
    await setLabel(owner, { label: 'dog', media_ids: [ids.get('dog.jpg')] });
    const plan = await server.api(owner.token, 'POST', url('/labels/propagate'), { threshold: 4, dry_run: true });
    expect(plan.status).toBe(200);
    expect(plan.body.clusters).toBeGreaterThanOrEqual(1);
    expect(plan.body.media).toBeGreaterThanOrEqual(1);
    expect(await names('labels=dog')).toEqual(['dog.jpg']);
    const started = await server.api(editor.token, 'POST', url('/labels/propagate'), { threshold: 4 });
    expect(started.status).toBe(202);
    const task = await waitForTask(server, owner, datasetId, started.body.task_id, hasStatus('COMPLETED'), 'propagation done', 30_000);
    expect(task).toMatchObject({ task_type: 'LABEL_PROPAGATION', status_message: expect.stringContaining(`Labelled ${plan.body.media} media`) });
    const labelled = await names('labels=dog');
    expect(labelled).toHaveLength(1 + plan.body.media);
    expect(labelled).toEqual(expect.arrayContaining(['dog-crop.jpg', 'dog-small.jpg', 'dog.jpg']));
    expect(await server.api(viewer.token, 'POST', url('/labels/propagate'), { threshold: 4 })).toMatchObject({ status: 403 });
    expect(await server.api(owner.token, 'POST', url('/labels/propagate'), { threshold: 5 })).toMatchObject({ status: 422 });
  });

  it('blocks snapshot creation, restore and a second propagation while it runs (409)', async () => {
    const snapshot = (await server.api(owner.token, 'GET', url('/snapshot'))).body[0];
    await holding('lock table version_bases in access exclusive mode', async () => {
      const started = await server.api(owner.token, 'POST', url('/labels/propagate'), { threshold: 4 });
      expect(started.status).toBe(202);
      await waitForTask(server, owner, datasetId, started.body.task_id, hasStatus('RUNNING'), 'propagation running');
      expect(await server.api(owner.token, 'POST', url('/snapshot'), { name: 'during' })).toEqual(
        expect.objectContaining({ status: 409, body: { detail: "Operation 'create_snapshot' is blocked while LABEL_PROPAGATION task is running" } }),
      );
      expect((await server.api(owner.token, 'POST', url(`/snapshot/${snapshot.snapshot_id}/restore`))).status).toBe(409);
      expect((await server.api(owner.token, 'POST', url('/labels/propagate'), { threshold: 4 })).status).toBe(409);
    });
    await waitFor(async () => ((await server.api(owner.token, 'POST', url('/snapshot'), { name: 'after' })).status === 200 ? true : undefined), 30_000, 'snapshot after');
  });
});

describe('snapshots capture tags and labels', () => {
  it('a restore brings back the tags and labels of the snapshot; edits during the restore get 409', async () => {
    const snap = await server.api(owner.token, 'POST', url('/snapshot'), { name: 'tagged' });
    expect(snap.status).toBe(200);
    const before = { tags: await tagList(), labels: await labelList() };
    await addTags(owner, { tags: ['later'], query: {} });
    await removeTags(owner, { tags: ['pet'], query: {} });
    await setLabel(owner, { label: 'thing', query: {} });
    expect((await tagList()).map((t: any) => t.tag)).toContain('later');

    await holding(`select id from snapshots where id = '${snap.body.snapshot_id}' for update`, async () => {
      expect((await server.api(owner.token, 'POST', url(`/snapshot/${snap.body.snapshot_id}/restore`))).status).toBe(202);
      expect(await addTags(owner, { tags: ['y'], media_ids: [ids.get('dog.jpg')] })).toMatchObject({
        status: 409,
        body: { detail: "Operation 'edit_annotations' is blocked while SNAPSHOT_RESTORE task is running" },
      });
      expect((await setLabel(owner, { label: 'y', media_ids: [ids.get('dog.jpg')] })).status).toBe(409);
    });
    await waitForDataset(server, owner, datasetId, ['READY']);
    expect(await tagList()).toEqual(before.tags);
    expect(await labelList()).toEqual(before.labels);
  });
});
