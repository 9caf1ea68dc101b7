import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UploadFile, createDataset, generatedJpegs, photo } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

/**
 * Issue 29's leakage over HTTP, on fixture photos and edits of them (a crop, a re-encode): between the splits of one
 * dataset and between two datasets, the pairs found exactly, the counts per side, paging, tagging, bad input, access.
 */

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
/** Originals as train, edits of two of them and an unrelated photo as val, an edit of a third and another photo as test. */
let splits: string;
/** Other edits of the same originals and a generated picture. */
let other: string;
let ids: Map<string, string>;

const crop = (name: string) => PHOTO_EDITS.crop84!(photo(name).bytes);
const reencode = (name: string) => PHOTO_EDITS['half-q30']!(photo(name).bytes);
const SPLIT_OF: Record<string, string> = {
  'dog.jpg': 'train',
  'horses.jpg': 'train',
  'person.jpg': 'train',
  'chelsea.png': 'train',
  'coffee.png': 'train',
  'dog-crop.jpg': 'val',
  'horses-small.jpg': 'val',
  'kite.jpg': 'val',
  'coffee-small.jpg': 'test',
  'astronaut.png': 'test',
};

const leakage = (datasetId: string, body: unknown, user = owner) => server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/leakage`, body);

async function finished(datasetId: string, body: unknown) {
  const res = await leakage(datasetId, body);
  expect(res.status, res.text).toBe(202);
  expect(res.headers.get('location')).toBe(`/api/v1/tasks/${res.body.task_id}`);
  const task = await waitForTask(server, owner, datasetId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'leakage done', 20_000);
  expect(task, JSON.stringify(task)).toMatchObject({ task_type: 'LEAKAGE', status: 'COMPLETED' });
  const run = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/leakage/${res.body.task_id}`);
  expect(run.status, run.text).toBe(200);
  return { taskId: res.body.task_id as string, run: run.body, message: task.status_message as string };
}

/** Every pair of a run as "comparison: a ~ b", by file name, most similar first. */
async function pairsOf(datasetId: string, taskId: string) {
  const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/leakage/${taskId}/pairs`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const names = (page: any) => page.pairs.map((p: any) => `${p.comparison}: ${p.media_a.file_name} ~ ${p.media_b.file_name}`).sort();

async function tagsOf(datasetId: string): Promise<Record<string, string[]>> {
  const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?page_size=100`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body.media as any[]).map((m) => [m.file_name, m.tags]));
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  const originals = ['dog.jpg', 'horses.jpg', 'person.jpg', 'chelsea.png', 'coffee.png', 'kite.jpg', 'astronaut.png'].map(photo);
  const splitFiles: UploadFile[] = [
    ...originals,
    { name: 'dog-crop.jpg', bytes: await crop('dog.jpg') },
    { name: 'horses-small.jpg', bytes: await reencode('horses.jpg') },
    { name: 'coffee-small.jpg', bytes: await reencode('coffee.png') },
  ];
  const otherFiles: UploadFile[] = [
    { name: 'dog-small.jpg', bytes: await reencode('dog.jpg') },
    { name: 'person-crop.jpg', bytes: await crop('person.jpg') },
    ...(await generatedJpegs(1)),
  ];
  const [a, b] = await Promise.all([createDataset(server, owner, 'splits', [splitFiles]), createDataset(server, owner, 'other', [otherFiles])]);
  expect([a.dataset.status_new, b.dataset.status_new]).toEqual(['READY', 'READY']);
  splits = a.datasetId;
  other = b.datasetId;
  await server.api(owner.token, 'POST', `/api/v1/dataset/${splits}/share`, { user_email: viewer.email });
  const csv = ['file_name,split,camera', ...Object.entries(SPLIT_OF).map(([file, split]) => `${file},${split},x`)].join('\n');
  const form = new FormData();
  form.set('file', new Blob([csv]), 'splits.csv');
  const imported = await server.api(owner.token, 'POST', `/api/v1/dataset/${splits}/custom_metadata`, form);
  expect(imported.status, imported.text).toBe(202);
  await waitForTask(server, owner, splits, imported.body.task_id, hasStatus('COMPLETED'), 'split import', 20_000);
  const listed = await server.api(owner.token, 'GET', `/api/v1/dataset/${splits}/media?page_size=100`);
  ids = new Map((listed.body.media as any[]).map((m) => [m.file_name, m.media_id]));
}, 120_000);
afterAll(() => server?.close());

describe('leakage between splits', () => {
  it('finds exactly the edits across every pair of splits, counts each side, and pages the pairs by similarity', async () => {
    const { taskId, run, message } = await finished(splits, { split_field: 'split' });
    const side = (name: string, n_media: number, n_leaked: number) => ({ name, dataset_id: splits, n_media, n_leaked, percent_leaked: Math.round((10_000 * n_leaked) / n_media) / 100, n_tagged: null });
    expect(run).toEqual({
      task_id: taskId,
      dataset_id: splits,
      other_dataset_id: null,
      split_field: 'split',
      threshold: 0.7,
      tag: null,
      comparisons: [
        { comparison: 0, side_a: side('train', 5, 2), side_b: side('val', 3, 2), n_pairs: 2 },
        { comparison: 1, side_a: side('train', 5, 1), side_b: side('test', 2, 1), n_pairs: 1 },
        { comparison: 2, side_a: side('val', 3, 0), side_b: side('test', 2, 0), n_pairs: 0 },
      ],
      created_at: expect.any(String),
    });
    expect(message).toContain('2 of 3 val media (66.67 %) have a near-duplicate in train');
    const page = await pairsOf(splits, taskId);
    expect(names(page)).toEqual(['0: dog.jpg ~ dog-crop.jpg', '0: horses.jpg ~ horses-small.jpg', '1: coffee.png ~ coffee-small.jpg']);
    expect(page).toMatchObject({ page_number: 0, page_size: 100, total: 3 });
    const similarities = page.pairs.map((p: any) => p.similarity);
    expect(similarities).toEqual([...similarities].sort((x: number, y: number) => y - x));
    for (const p of page.pairs) {
      expect(p.similarity).toBeGreaterThanOrEqual(0.7);
      expect(p.similarity).toBeLessThanOrEqual(1);
      expect(p.media_a).toEqual({ media_id: ids.get(p.media_a.file_name), file_name: p.media_a.file_name, dataset_id: splits, media_thumb_uri: expect.stringContaining(`/media/${p.media_a.media_id}/thumbnail?`) });
      const thumb = await fetch(p.media_b.media_thumb_uri);
      expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/webp']);
    }
    const later = await server.api(owner.token, 'GET', `/api/v1/dataset/${splits}/leakage/${taskId}/pairs?page_number=1`);
    expect(later.body).toEqual({ pairs: [], page_number: 1, page_size: 100, total: 3 });
    const one = await server.api(owner.token, 'GET', `/api/v1/dataset/${splits}/leakage/${taskId}/pairs?comparison=1`);
    expect([one.body.total, names(one.body)]).toEqual([1, ['1: coffee.png ~ coffee-small.jpg']]);
    expect(await server.api(owner.token, 'GET', `/api/v1/dataset/${splits}/leakage/${taskId}/pairs?comparison=3`)).toMatchObject({
      status: 422,
      body: { detail: 'comparison must be below 3: the run compared 3 pair(s) of sides' },
    });
  });

  it('compares the two named splits only, and tags the leaked media of both', async () => {
    const { run } = await finished(splits, { split_field: 'split', split_values: ['test', 'train'], tag: 'leak' });
    expect(run.comparisons).toEqual([
      {
        comparison: 0,
        side_a: { name: 'test', dataset_id: splits, n_media: 2, n_leaked: 1, percent_leaked: 50, n_tagged: 1 },
        side_b: { name: 'train', dataset_id: splits, n_media: 5, n_leaked: 1, percent_leaked: 20, n_tagged: 1 },
        n_pairs: 1,
      },
    ]);
    const tagged = Object.entries(await tagsOf(splits)).filter(([, tags]) => tags.includes('leak')).map(([name]) => name);
    expect(tagged.sort()).toEqual(['coffee-small.jpg', 'coffee.png']);
  });
});

describe('leakage between datasets', () => {
  it('finds each edit of the other dataset beside its original (and the original’s edits), and tags both sides', async () => {
    const { run, taskId } = await finished(other, { other_dataset_id: splits, tag: 'leak-other' });
    expect(run).toMatchObject({ dataset_id: other, other_dataset_id: splits, split_field: null, tag: 'leak-other' });
    const page = await pairsOf(other, taskId);
    const found = names(page);
    // Each edit here matches its original there, and dog's re-encode also the crop of dog there: one media in two
    // pairs, tagged once (tagging it twice failed the commit on annotation_rows' key).
    expect(found, JSON.stringify(page.pairs.map((p: any) => p.similarity))).toEqual(['0: dog-small.jpg ~ dog-crop.jpg', '0: dog-small.jpg ~ dog.jpg', '0: person-crop.jpg ~ person.jpg']);
    for (const p of page.pairs) expect([p.media_a.dataset_id, p.media_b.dataset_id]).toEqual([other, splits]);
    const [c] = run.comparisons;
    expect(c.side_a).toEqual({ name: 'other', dataset_id: other, n_media: 3, n_leaked: 2, percent_leaked: 66.67, n_tagged: 2 });
    expect(c.side_b).toMatchObject({ name: 'splits', dataset_id: splits, n_media: 10, n_tagged: c.side_b.n_leaked });
    expect(c.n_pairs).toBe(found.length);
    const here = await tagsOf(other);
    expect(Object.keys(here).filter((n) => here[n]!.includes('leak-other')).sort()).toEqual(['dog-small.jpg', 'person-crop.jpg']);
    const there = await tagsOf(splits);
    const leakedThere = [...new Set(page.pairs.map((p: any) => p.media_b.file_name))].sort();
    expect(Object.keys(there).filter((n) => there[n]!.includes('leak-other')).sort()).toEqual(leakedThere);
  });
});

describe('refusals', () => {
  it('answers bad input with a clear 4xx and starts nothing', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, 'Give exactly one of other_dataset_id (another dataset) or split_field (a custom field whose values are splits)'],
      [{ split_field: 'split', other_dataset_id: other }, 422, 'Give exactly one of other_dataset_id (another dataset) or split_field (a custom field whose values are splits)'],
      [{ split_field: 'weather' }, 422, "Unknown custom field 'weather'; this dataset's fields are camera, split"],
      [{ split_field: 'camera' }, 422, "Field 'camera' has one value only ('x'); a split field needs at least two"],
      [{ split_field: 'split', split_values: ['train', 'holdout'] }, 422, "split_values: no media has split = 'holdout'"],
      [{ split_field: 'split', split_values: ['train', 'train'] }, 422, 'split_values must name two different values'],
      [{ other_dataset_id: splits }, 422, 'other_dataset_id is this dataset; to compare its splits give split_field instead'],
      [{ split_field: 'split', threshold: 0.2 }, 422, 'body/threshold must be >= 0.5'],
      [{ split_field: 'split', tag: '' }, 422, 'body/tag must NOT have fewer than 1 characters'],
    ];
    for (const [body, status, detail] of cases) expect(await leakage(splits, body), JSON.stringify(body)).toMatchObject({ status, body: { detail } });
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${splits}&task_type=LEAKAGE&page_size=50`);
    expect(tasks.body.tasks).toHaveLength(2);
  });

  it('refuses what the caller may not see or change, datasets without an index and other embedding models', async () => {
    const mine = await server.api(stranger.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=strangers');
    expect(await leakage(splits, { other_dataset_id: mine.body.dataset_id })).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    expect(await leakage(splits, { split_field: 'split' }, stranger)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    expect(await leakage(splits, { split_field: 'split', tag: 'leak' }, viewer)).toMatchObject({ status: 403, body: { detail: 'You do not have permission to change this dataset' } });
    const draft = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=draft');
    expect(await leakage(splits, { other_dataset_id: draft.body.dataset_id })).toMatchObject({ status: 409, body: { detail: `Dataset ${draft.body.dataset_id} has no index yet; explore it once it is READY` } });
    expect(await leakage(draft.body.dataset_id, { other_dataset_id: splits })).toMatchObject({
      status: 409,
      body: { detail: "Operation 'find_leakage' needs the dataset READY or PARTIAL INDEX; it is INDEXING" },
    });
    const db = server.loupe.container.database.db;
    const head = (await db.selectFrom('datasets').select('head_version_id').where('id', '=', other).executeTakeFirstOrThrow()).head_version_id!;
    const { model } = await db.selectFrom('version_indexes').select('model').where('version_id', '=', head).executeTakeFirstOrThrow();
    await db.updateTable('version_indexes').set({ model: 'another-model@1' }).where('version_id', '=', head).execute();
    try {
      expect(await leakage(splits, { other_dataset_id: other })).toMatchObject({
        status: 409,
        body: { detail: `Datasets ${splits} and ${other} were embedded by different models (${model} and another-model@1); their vectors cannot be compared` },
      });
    } finally {
      await db.updateTable('version_indexes').set({ model }).where('version_id', '=', head).execute();
    }
    const creation = (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${splits}&task_type=DATASET_CREATION`)).body.tasks[0].task_id;
    expect(await server.api(owner.token, 'GET', `/api/v1/dataset/${splits}/leakage/${creation}`)).toMatchObject({
      status: 422,
      body: { detail: `Task ${creation} is a DATASET_CREATION task, not a leakage run` },
    });
    expect(await server.api(owner.token, 'GET', `/api/v1/dataset/${other}/leakage/${creation}/pairs`)).toMatchObject({ status: 404, body: { detail: 'Leakage run not found' } });
    expect(await server.api(viewer.token, 'GET', `/api/v1/dataset/${other}/leakage/${creation}`)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
  });
});
