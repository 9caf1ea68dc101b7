import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UploadFile, createDataset, photo } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { type TestServer, type TestUser, waitFor } from '../support/server.js';
import { startTestServer } from '../support/server.js';

/**
 * Issue 29's diverse subsets over HTTP, on fixture photos and near-duplicate edits of each (a half-size re-encode and an
 * 84 % crop): diverse picks one of each near-duplicate group, representative one per level-0 cluster, uncertain the
 * highest scores; the tag action tags them, the clone action makes a READY dataset of exactly them; bad input and
 * access are refused before any task starts.
 */

const PHOTOS = ['dog.jpg', 'horses.jpg', 'kite.jpg', 'chelsea.png', 'coffee.png'];
const GROUPS = PHOTOS.length;

let server: TestServer;
let owner: TestUser;
let datasetId: string;

/** The photo a file was made from: `dog.jpg`, `dog-crop84.jpg` → `dog`. */
const groupOf = (fileName: string) => fileName.split(/[-.]/)[0]!;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  const files: UploadFile[] = [];
  for (const name of PHOTOS) {
    const original = photo(name);
    files.push(original);
    for (const edit of ['half-q30', 'crop84']) files.push({ name: `${groupOf(name)}-${edit}.jpg`, bytes: await PHOTO_EDITS[edit]!(original.bytes) });
  }
  const created = await createDataset(server, owner, 'selection', [files]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
  // A numeric and a text field for uncertain: each group's score is its photo's place in PHOTOS, plus 0.1 per edit.
  const rows = files.map((f, i) => `${f.name},${Math.floor(i / 3) + (i % 3) / 10},note${i}`);
  const form = new FormData();
  form.set('file', new Blob([`file_name,score,note\n${rows.join('\n')}`]), 'scores.csv');
  const imported = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/custom_metadata`, form);
  expect(imported.status, imported.text).toBe(202);
  await finished(imported.body.task_id);
}, 180_000);
afterAll(() => server?.close());

async function finished(taskId: string): Promise<Record<string, any>> {
  const task = await waitFor(async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/tasks/${taskId}`);
    return ['COMPLETED', 'FAILED', 'ABORTED'].includes(res.body?.status) ? res.body : undefined;
  }, 60_000);
  expect(task.status, task.error_message).toBe('COMPLETED');
  return task;
}

/** Starts a selection and waits for its task; answers the task. */
async function select(body: Record<string, unknown>, dataset = datasetId): Promise<Record<string, any>> {
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${dataset}/select`, body);
  expect(res.status, res.text).toBe(202);
  expect(res.headers.get('location')).toBe(`/api/v1/tasks/${res.body.task_id}`);
  const task = await finished(res.body.task_id);
  expect(task.task_type).toBe('SELECTION');
  return task;
}

/** The file names of a dataset's media carrying `tag` (every member of every cluster). */
async function tagged(tag: string, dataset = datasetId): Promise<string[]> {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${dataset}?previews_limit=1000&tags=${tag}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.clusters as Array<{ previews: Array<{ file_name: string }> }>).flatMap((c) => c.previews.map((p) => p.file_name)).sort();
}

describe('POST /dataset/{id}/select', () => {
  it('diverse with n = the number of photos picks one of each near-duplicate group, and tags them', async () => {
    await select({ n: GROUPS, strategy: 'diverse' });
    const names = await tagged('selected');
    expect(names).toHaveLength(GROUPS);
    expect(new Set(names.map(groupOf)).size).toBe(GROUPS);
  });

  it('representative gives each level-0 cluster picks in proportion to its size; fraction rounds', async () => {
    await select({ fraction: 1 / 3, strategy: 'representative', threshold: 0, tag: 'rep' });
    const names = await tagged('rep');
    expect(names).toHaveLength(GROUPS);
    expect(new Set(names.map(groupOf)).size).toBe(GROUPS);
  });

  it('uncertain takes the highest of a numeric field (asc: the lowest), among media without a tag when asked', async () => {
    await select({ n: 3, strategy: 'uncertain', field: 'score', tag: 'unsure' });
    expect(await tagged('unsure')).toEqual(['coffee-crop84.jpg', 'coffee.png', 'coffee-half-q30.jpg'].sort());
    await select({ n: 2, strategy: 'uncertain', field: 'score', order: 'asc', tag: 'sure' });
    expect(await tagged('sure')).toEqual(['dog-half-q30.jpg', 'dog.jpg']);
    // Among the media not tagged 'unsure', the highest three are the next group down.
    await select({ n: 3, strategy: 'uncertain', field: 'score', tag: 'next', exclude_tags: ['unsure'] });
    expect((await tagged('next')).map(groupOf)).toEqual(['chelsea', 'chelsea', 'chelsea']);
  });

  it('an Explore query narrows the pool: diverse among the media of one tag picks only those', async () => {
    await select({ n: 2, strategy: 'diverse', query: { tags: 'unsure' }, tag: 'inside' });
    const names = await tagged('inside');
    expect(names).toHaveLength(2);
    expect(names.every((n) => groupOf(n) === 'coffee')).toBe(true);
  });

  it('clone makes a new READY dataset holding exactly the selection, explorable, owned by the caller', async () => {
    const task = await select({ n: GROUPS, strategy: 'diverse', action: 'clone', name: 'diverse subset' });
    const list = await server.api(owner.token, 'GET', '/api/v1/datasets');
    const clone = (list.body as Array<Record<string, any>>).find((d) => d.display_name === 'diverse subset')!;
    expect(clone).toMatchObject({ status_new: 'READY', n_images: GROUPS, source_dataset_id: datasetId });
    expect(task.status_message).toContain(clone.id);
    const explore = await server.api(owner.token, 'GET', `/api/v1/explore/${clone.id}?previews_limit=1000`);
    expect(explore.status, explore.text).toBe(200);
    const names = (explore.body.clusters as Array<{ previews: Array<{ file_name: string }> }>).flatMap((c) => c.previews.map((p) => p.file_name)).sort();
    // The same traversal as the tag action's: the same media.
    expect(names).toEqual(await tagged('selected'));
    // Its tags came along; it is a dataset of its own: a selection on it works.
    expect(await tagged('selected', clone.id)).toEqual(names);
    await select({ n: 2, strategy: 'diverse', tag: 'again' }, clone.id);
    expect(await tagged('again', clone.id)).toHaveLength(2);
  });

  it('bad input: a clear 422 (or 409 for a dataset without an index), no task started', async () => {
    const bad = async (body: Record<string, unknown>, status: number, detail: string | RegExp, dataset = datasetId) => {
      const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${dataset}/select`, body);
      expect({ status: res.status, detail: res.body.detail }, JSON.stringify(body)).toEqual({ status, detail: typeof detail === 'string' ? detail : expect.stringMatching(detail) });
    };
    const count = GROUPS * 3;
    await bad({ n: 0, strategy: 'diverse' }, 422, 'n must be a positive integer');
    await bad({ n: -3, strategy: 'diverse' }, 422, 'n must be a positive integer');
    await bad({ n: count + 1, strategy: 'diverse' }, 422, `n is ${count + 1} but there are only ${count} media to select from`);
    await bad({ n: 2, fraction: 0.5, strategy: 'diverse' }, 422, 'Give exactly one of n and fraction');
    await bad({ strategy: 'diverse' }, 422, 'Give exactly one of n and fraction');
    await bad({ fraction: 1.5, strategy: 'diverse' }, 422, 'fraction must be greater than 0 and at most 1');
    await bad({ fraction: 0, strategy: 'diverse' }, 422, 'fraction must be greater than 0 and at most 1');
    await bad({ n: 2, strategy: 'newest' }, 422, "Unknown strategy 'newest': use one of diverse, representative, uncertain");
    await bad({ n: 2, strategy: 'uncertain' }, 422, 'strategy uncertain needs field: a numeric custom field');
    await bad({ n: 2, strategy: 'uncertain', field: 'nope' }, 422, "Unknown custom field 'nope'");
    await bad({ n: 2, strategy: 'uncertain', field: 'note' }, 422, "Custom field 'note' is string, not numeric: uncertain needs a number field");
    await bad({ n: 2, strategy: 'diverse', action: 'clone' }, 422, 'action clone needs name: the new dataset’s name');
    await bad({ n: 2, strategy: 'diverse', action: 'copy' }, 422, /action/);
    await bad({ n: 2, strategy: 'diverse', query: { vql: '[{"nope": 1}]' } }, 422, /nope/);
    const draft = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=draft');
    await bad({ n: 1, strategy: 'diverse' }, 409, /select_media/, draft.body.dataset_id);
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&limit=100`);
    expect((tasks.body.tasks as Array<{ status: string }>).every((t) => t.status === 'COMPLETED')).toBe(true);
  });

  it('access: a viewer gets 403, a stranger 404', async () => {
    const [viewer, stranger] = [await server.createUser(), await server.createUser()];
    const share = new URLSearchParams({ user_email: viewer.email });
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, share)).status).toBeLessThan(300);
    const body = { n: 1, strategy: 'diverse' };
    const asViewer = await server.api(viewer.token, 'POST', `/api/v1/dataset/${datasetId}/select`, body);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body).toEqual({ detail: expect.stringContaining('permission') });
    const asStranger = await server.api(stranger.token, 'POST', `/api/v1/dataset/${datasetId}/select`, body);
    expect(asStranger).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
  });
});
