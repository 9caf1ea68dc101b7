import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportArchive, parquetRows } from '../support/exports.js';
import { type UploadFile, createDataset, photo } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { waitForTask } from '../support/tasks.js';

/**
 * Issue 29's label errors over HTTP, on fixture photos and edits of them labelled by what they show: one re-encoded
 * copy of the dog given the horses' label comes out as a mislabel suggesting `dog`; a kite labelled `dog` is that
 * class's outlier; Explore filters, the issues route and every export format carry the scores.
 */

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;
let ids: Map<string, string>;

const LABELS: Record<string, string> = {};

/** The photo and its four edits, each labelled `label`. */
async function family(file: string, label: string): Promise<UploadFile[]> {
  const original = photo(file);
  const stem = file.replace(/\.[a-z]+$/, '');
  const edits = await Promise.all(Object.entries(PHOTO_EDITS).map(async ([edit, make]) => ({ name: `${stem}-${edit}.jpg`, bytes: await make(original.bytes) })));
  const files = [original, ...edits];
  for (const f of files) LABELS[f.name] = label;
  return files;
}

async function label(value: string, names: string[]) {
  const res = await server.api(owner.token, 'PUT', `/api/v1/dataset/${datasetId}/media/label`, { label: value, media_ids: names.map((n) => ids.get(n)) });
  expect(res.status, res.text).toBe(200);
}

/** Starts the analysis and waits for it; answers the finished task. */
async function labelErrors(body: Record<string, unknown>) {
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/label_errors`, body);
  expect(res.status, res.text).toBe(202);
  expect(res.headers.get('location')).toBe(`/api/v1/tasks/${res.body.task_id}`);
  return waitForTask(server, owner, datasetId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'label errors', 30_000);
}

async function explored(query: string): Promise<string[]> {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=1000&${query}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.clusters as Array<{ previews: Array<{ file_name: string }> }>).flatMap((c) => c.previews.map((p) => p.file_name)).sort();
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  const dog = photo('dog.jpg');
  const files = [
    ...(await family('dog.jpg', 'dog')),
    ...(await family('horses.jpg', 'horse')),
    // A re-encoded copy of the dog, labelled as the horses are: the mislabel.
    { name: 'dog-q50.jpg', bytes: await sharp(dog.bytes).jpeg({ quality: 50 }).toBuffer() },
    // A photo of something else labelled dog: far from the dogs' centroid.
    photo('kite.jpg'),
    // Unlabelled: never a neighbour, never scored.
    photo('person.jpg'),
  ];
  LABELS['dog-q50.jpg'] = 'horse';
  LABELS['kite.jpg'] = 'dog';
  const created = await createDataset(server, owner, 'label-errors', [files]);
  datasetId = created.datasetId;
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email, role: 'viewer' });
  const list = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=100`);
  ids = new Map(list.body.media.map((m: any) => [m.file_name, m.media_id]));
  for (const value of ['dog', 'horse']) await label(value, Object.keys(LABELS).filter((n) => LABELS[n] === value));
}, 180_000);
afterAll(() => server?.close());

describe('label errors', () => {
  it('refuses bad input, a dataset without labels, a viewer and a stranger; nothing starts', async () => {
    const url = `/api/v1/dataset/${datasetId}/label_errors`;
    for (const [body, field] of [
      [{ k: 0 }, 'k'],
      [{ k: 51 }, 'k'],
      [{ k: 'ten' }, 'k'],
      [{ threshold: 1.5 }, 'threshold'],
      [{ threshold: -0.1 }, 'threshold'],
    ] as const) {
      const res = await server.api(owner.token, 'POST', url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toEqual(expect.stringContaining(field));
    }
    expect(await server.api(viewer.token, 'POST', url, {})).toMatchObject({ status: 403, body: { detail: 'You do not have permission to change this dataset' } });
    expect(await server.api(stranger.token, 'POST', url, {})).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    const bare = await createDataset(server, owner, 'unlabelled', [[photo('dog.jpg'), photo('kite.jpg')]]);
    const unlabelled = await server.api(owner.token, 'POST', `/api/v1/dataset/${bare.datasetId}/label_errors`, {});
    expect(unlabelled).toMatchObject({
      status: 409,
      body: { detail: 'Label errors need at least 2 media with an image label; label media first (PUT /api/v1/dataset/{dataset_id}/media/label)' },
    });
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}`);
    expect(tasks.body.tasks.filter((t: any) => t.task_type === 'LABEL_ERRORS')).toEqual([]);
    expect(await explored('issue_type=mislabels')).toEqual([]);
  });

  it('finds the mislabelled copy with the right suggestion and the class outlier; Explore, issues and exports agree', async () => {
    const task = await labelErrors({ k: 3 });
    expect(task.status_message).toBe('Scored 12 labelled media (k=3): 1 mislabels at threshold 0.7, 2 class outliers');
    expect(await explored('issue_type=mislabels')).toEqual(['dog-q50.jpg']);
    // The dog among the horses is also their class's outlier.
    expect(await explored('issue_type=class_outliers')).toEqual(['dog-q50.jpg', 'kite.jpg']);
    const vql = encodeURIComponent(JSON.stringify([{ issues: { op: 'issue', value: 'mislabels', mode: 'out' } }]));
    expect(await explored(`vql=${vql}`)).not.toContain('dog-q50.jpg');
    const issues = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues`);
    expect(issues.body.issues).toMatchObject({ mislabels: 1, class_outliers: 2 });

    const archive = (format: string) => exportArchive(server, owner, datasetId, `file_name=labels&export_format=${format}`);
    const json = JSON.parse((await archive('json')).get('metadata.json')!.bytes.toString('utf8')).media_items as Array<Record<string, any>>;
    const parquet = await parquetRows((await archive('parquet')).get('metadata.parquet')!.bytes);
    const csvText = (await archive('csv')).get('metadata.csv')!.bytes.toString('utf8');
    const [header, ...lines] = csvText.trim().split('\n');
    const columns = header!.split(',');
    const csv = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])));
    for (const rows of [json, parquet, csv]) {
      const byName = new Map(rows.map((r) => [r.file_name as string, r]));
      const wrong = byName.get('dog-q50.jpg')!;
      expect(String(wrong.suggested_label)).toBe('dog');
      expect(Number(wrong.mislabel_score)).toBe(1);
      expect(String(wrong.is_mislabel)).toBe('true');
      expect(String(byName.get('kite.jpg')!.is_class_outlier)).toBe('true');
      expect(Number(byName.get('kite.jpg')!.class_outlier_score)).toBeGreaterThan(Number(byName.get('dog-crop84.jpg')!.class_outlier_score));
      expect(String(byName.get('dog.jpg')!.is_mislabel)).toBe('false');
      expect(byName.get('person.jpg')!.mislabel_score ?? '').toBe('');
    }
    expect(json.find((r) => r.file_name === 'dog-q50.jpg')!.metadata_items).toContainEqual({
      type: 'issue',
      properties: { issue_type: 'mislabels', confidence: 1, suggested_label: 'dog' },
    });
  });

  it('a label fixed after the run leaves the issues; the next run scores the labels as they are', async () => {
    await label('dog', ['dog-q50.jpg']);
    expect(await explored('issue_type=mislabels')).toEqual([]);
    expect(await explored('issue_type=class_outliers')).toEqual(['kite.jpg']);
    const task = await labelErrors({});
    expect(task.status_message).toBe('Scored 12 labelled media (k=10): 0 mislabels at threshold 0.7, 1 class outliers');
    expect(await explored('issue_type=class_outliers')).toEqual(['kite.jpg']);
  });
});
