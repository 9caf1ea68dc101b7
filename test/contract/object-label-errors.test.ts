import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { waitForTask } from '../support/tasks.js';
import { exportArchive } from '../support/exports.js';
import { readGraphFile } from '../../src/adapters/vectors/graph-file.js';

/**
 * Label errors on detected objects (issue 29 part 3), on real photos: the built-in detector finds a dog, a bicycle and
 * a car on dog.jpg and on a re-encoded copy of it, and horses on horses.jpg and its copy; the copy's dog relabelled
 * `horse` is a mislabel whose nearest objects suggest `dog`, and Explore's objects view filters it by issue.
 */

let server: TestServer;
let owner: TestUser;
let sourceId: string;
let copyId: string;

type Preview = { object_id: string; file_name: string; label: string; issues: string[]; suggested_label?: string | null };

async function objects(query = ''): Promise<Preview[]> {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${copyId}?entity_type=OBJECTS&threshold=0&previews_limit=100${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.clusters.flatMap((c: any) => c.previews);
}

async function labelErrors(body: Record<string, unknown>) {
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${copyId}/label_errors`, body);
  expect(res.status, res.text).toBe(202);
  return waitForTask(server, owner, copyId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'label errors', 30_000);
}

const relabel = (ids: string[], label: string | null) => server.api(owner.token, 'PUT', `/api/v1/dataset/${copyId}/objects/label`, { object_ids: ids, label });

beforeAll(async () => {
  // No grace for the sweeps: the last test watches a deleted dataset's object graph go.
  server = await startTestServer({ env: { VERSION_GC_GRACE_SECONDS: '0', BLOB_GC_GRACE_SECONDS: '0', SNAPSHOT_PURGE_AFTER_SECONDS: '0' } });
  owner = await server.createUser();
  const [dog, horses] = [photo('dog.jpg'), photo('horses.jpg')];
  const copy = async (file: typeof dog, name: string) => ({ name, bytes: await sharp(file.bytes).jpeg({ quality: 50 }).toBuffer() });
  ({ datasetId: sourceId } = await createDataset(server, owner, 'objects', [[dog, horses, await copy(dog, 'dog-q50.jpg'), await copy(horses, 'horses-q50.jpg')]]));
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/enrich_dataset`, { enrichment_models: { OBJECT_DETECTION: 'vl_object_detector_v00' } });
  expect(res.status, res.text).toBe(200);
  copyId = res.body.dataset_id;
  await waitForDataset(server, owner, copyId, ['READY'], 120_000);
}, 180_000);
afterAll(() => server?.close());

describe('label errors on objects', () => {
  it('refuses a bad target, and objects on a dataset without detected objects (422, nothing starts)', async () => {
    const bad = await server.api(owner.token, 'POST', `/api/v1/dataset/${copyId}/label_errors`, { target: 'boxes' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(expect.stringContaining('target'));
    const none = await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/label_errors`, { target: 'objects' });
    expect(none).toMatchObject({
      status: 422,
      body: {
        detail:
          'Label errors on objects need at least 2 detected objects with a crop embedding; this dataset has 0: detect objects first (POST /api/v1/dataset/{dataset_id}/enrich_dataset with OBJECT_DETECTION)',
      },
    });
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${sourceId}`);
    expect(tasks.body.tasks.filter((t: any) => t.task_type === 'LABEL_ERRORS')).toEqual([]);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/issues`)).body.object_issues).toEqual({ mislabels: 0, class_outliers: 0 });
  });

  it('flags the relabelled dog with the suggestion dog; the objects view filters it and shows the suggestion', async () => {
    const all = await objects();
    const wrong = all.find((o) => o.file_name === 'dog-q50.jpg' && o.label === 'dog')!;
    expect((await relabel([wrong.object_id], 'horse')).body).toEqual({ matched: 1, changed: 1 });
    const task = await labelErrors({ target: 'objects', k: 2 });
    expect(task.status_message).toBe('Scored 11 objects (k=2): 2 mislabels at threshold 0.7, 1 class outliers');
    const brief = (list: Preview[]) => list.map((o) => [o.file_name, o.label, o.suggested_label ?? null, o.issues.filter((i) => i !== 'duplicates')]);
    // The original dog's two nearest objects are the relabelled copy (nearest) and a bicycle: it is flagged too, suggesting horse.
    expect(brief(await objects('&issue_type=mislabels'))).toEqual([
      ['dog-q50.jpg', 'horse', 'dog', ['mislabels', 'class_outliers']],
      ['dog.jpg', 'dog', 'horse', ['mislabels']],
    ]);
    // The issues route counts them apart from the media's.
    const issues = await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/issues`);
    expect([issues.body.object_issues, issues.body.issues.mislabels]).toEqual([{ mislabels: 2, class_outliers: 1 }, 0]);
    // Among the horses, the dog is far from their centroid.
    expect(brief(await objects('&issue_type=class_outliers'))).toEqual([['dog-q50.jpg', 'horse', 'dog', ['mislabels', 'class_outliers']]]);
    const vql = encodeURIComponent(JSON.stringify([{ issues: { op: 'issue', value: 'mislabels', mode: 'out' } }]));
    const rest = await objects(`&vql=${vql}`);
    expect(rest.length).toBe(9);
    expect(rest.map((o) => o.object_id)).not.toContain(wrong.object_id);

    // Exports carry each scored object's own scores (JSON through the items, CSV through PostgreSQL's columns).
    const entries = async (format: string) => exportArchive(server, owner, copyId, `file_name=objects&export_format=${format}`);
    const json = JSON.parse((await entries('json')).get('metadata.json')!.bytes.toString('utf8')).media_items as Array<Record<string, any>>;
    const item = json.find((r) => r.file_name === 'dog-q50.jpg')!;
    const label = item.metadata_items.find((m: any) => m.type === 'object_label' && m.properties.object_id === wrong.object_id);
    expect(label.properties.metadata_items).toEqual([{ type: 'issue', properties: { issue_type: 'mislabels', confidence: 1, suggested_label: 'dog' } }, expect.objectContaining({ type: 'issue', properties: expect.objectContaining({ issue_type: 'class_outliers' }) })]);
    const csv = (await entries('csv')).get('metadata.csv')!.bytes.toString('utf8');
    expect(csv).toContain(`""object_id"":""${wrong.object_id}"",""label"":""horse""`);
    expect(csv).toMatch(new RegExp(`""object_id"":""${wrong.object_id}""[^}]*""mislabel_score"":1,""suggested_label"":""dog"",""class_outlier_score"":[0-9.]+,""is_mislabel"":true,""is_class_outlier"":true}`));
    // The media view knows nothing of object scores: no media run was made.
    const media = await server.api(owner.token, 'GET', `/api/v1/explore/${copyId}?issue_type=mislabels`);
    expect(media.body.clusters).toEqual([]);
    // Given its detected class back, the object leaves the issue (its score was of the label it no longer has).
    expect((await relabel([wrong.object_id], null)).body.changed).toBe(1);
    expect((await objects('&issue_type=mislabels')).map((o) => o.object_id)).not.toContain(wrong.object_id);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/issues`)).body.object_issues).toEqual({ mislabels: 1, class_outliers: 0 });
  });

  it('keeps the detection’s k-NN graph of its objects as a blob, each object at its ordinal, and lets it go with the last object', async () => {
    const db = server.loupe.container.database.db;
    const { rows: graphs } = await sql<{ task_id: string; item_count: number; graph_blob_hash: string }>`select task_id::text, item_count, graph_blob_hash from object_graphs`.execute(db);
    expect(graphs.length).toBe(1);
    const { rows: kept } = await sql<{ task_id: string; ordinal: number }>`select task_id::text, ordinal from object_embeddings order by ordinal`.execute(db);
    expect(kept.map((r) => r.ordinal)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(new Set(kept.map((r) => r.task_id))).toEqual(new Set([graphs[0]!.task_id]));
    const local = await server.loupe.container.blobs.localFile(graphs[0]!.graph_blob_hash);
    const graph = await readGraphFile(local.path).finally(() => local.release());
    expect([graph.n, graph.k]).toEqual([11, 10]);

    for (const id of [copyId, sourceId]) expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${id}`)).status).toBe(204);
    // The version sweep takes the media, their objects' rows, then the graph; the blob sweep its blob.
    await expect.poll(async () => (await sql`select 1 from object_graphs`.execute(db)).rows.length, { timeout: 30_000 }).toBe(0);
    await expect.poll(() => server.loupe.container.blobs.stat(graphs[0]!.graph_blob_hash), { timeout: 30_000 }).toBeNull();
  });
});
