import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { exportArchive } from '../support/exports.js';

/**
 * The built-in vision models end to end, on real photos, with the model ids the documented client script
 * hard-codes: a dog and a bicycle on dog.jpg, persons on kite.jpg, nothing on a plain synthetic image.
 */
let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let sourceId: string;
let copyId: string;

const MODELS = {
  OBJECT_DETECTION: 'vl_object_detector_v00',
  CAPTION_OBJECTS: 'vl_object_captioner_v00',
  CAPTION_IMAGES: 'vl_image_captioner_v00',
};
const explore = async (query: string) => (await server.api(owner.token, 'GET', `/api/v1/explore/${copyId}?${query}`)).body;
const previews = (body: any): any[] => body.clusters.flatMap((c: any) => c.previews);

beforeAll(async () => {
  // One media per chunk: the three are enriched by the task and the chunk jobs it queues, as on several workers.
  server = await startTestServer({ env: { TASK_CHUNK_ITEMS: '1' } });
  [owner, viewer] = await Promise.all([server.createUser(), server.createUser()]);
  const plain = { name: 'plain.png', bytes: await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toBuffer() };
  ({ datasetId: sourceId } = await createDataset(server, owner, 'street', [[photo('dog.jpg'), photo('kite.jpg'), plain]]));
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/enrich_dataset`, { enrichment_models: MODELS });
  expect(res.status).toBe(200);
  copyId = res.body.dataset_id;
  await waitForDataset(server, owner, copyId, ['READY', 'ERROR'], 240_000);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${copyId}/invite`, { grant_to_user_email: viewer.email });
}, 300_000);
afterAll(() => server?.close());

describe('built-in enrichment of real photos', () => {
  it('the copy is READY with its objects counted, the source READY again, the task COMPLETED at 100 %', async () => {
    const copy = (await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}`)).body;
    expect(copy).toMatchObject({ status_new: 'READY', n_images: 3, display_name: 'street (enriched)', fatal_error_msg: null });
    expect(copy.n_objects).toBeGreaterThanOrEqual(3);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${sourceId}`)).body.status_new).toBe('READY');
    const task = (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${copyId}&task_type=ENRICHMENT`)).body.tasks[0];
    expect(task).toMatchObject({ status: 'COMPLETED', progress_percentage: 100 });
    const context = (await server.api(owner.token, 'GET', `/api/v1/enrichment/${copyId}/context`)).body;
    expect(context).toMatchObject({ status: 'COMPLETED', dataset_enrichment_models: { enrichment_models: MODELS } });
    const db = server.loupe.container.database.db;
    const chunks = await db.selectFrom('task_chunks').select(['claimed_by', 'done_at', 'error']).where('task_id', '=', task.task_id).execute();
    expect(chunks).toHaveLength(3);
    expect(chunks.every((c) => c.done_at !== null && c.error === null)).toBe(true);
    expect(chunks.some((c) => c.claimed_by!.startsWith('job:'))).toBe(true);
  });

  it('finds a dog and a bicycle on dog.jpg, persons on kite.jpg and nothing on the plain image, as object entities', async () => {
    const objects = previews(await explore('entity_type=OBJECTS&threshold=0&previews_limit=100'));
    const labelsOf = (file: string) => new Set(objects.filter((o) => o.file_name === file).map((o) => o.label));
    expect([...labelsOf('dog.jpg')]).toEqual(expect.arrayContaining(['dog', 'bicycle']));
    expect([...labelsOf('kite.jpg')]).toContain('person');
    expect(labelsOf('plain.png').size).toBe(0);
    for (const o of objects) {
      expect(o).toMatchObject({ object_id: expect.any(String), score: expect.any(Number), caption: expect.any(String) });
      const { x, y, width, height } = o.bounding_box;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + width).toBeLessThanOrEqual(o.width + 1);
      expect(y + height).toBeLessThanOrEqual(o.height + 1);
    }
    const dog = objects.find((o) => o.file_name === 'dog.jpg' && o.label === 'dog');
    expect(dog.caption).toMatch(/dog/i);

    // The media detail carries the same objects and the image's caption.
    const detail = (await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/media/${dog.media_id}`)).body;
    expect(detail.caption).toEqual(expect.any(String));
    const dogObject = detail.objects.find((o: any) => o.object_id === dog.object_id);
    expect(dogObject).toEqual({ object_id: dog.object_id, label: 'dog', score: dog.score, bounding_box: dog.bounding_box, caption: dog.caption });
    const listed = (await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/media?limit=10`)).body.media.find((m: any) => m.media_id === dog.media_id);
    expect(listed.objects).toEqual(detail.objects);
  });

  it('object clusters page by level, and a labels filter keeps only those objects', async () => {
    const all = await explore('entity_type=OBJECTS&threshold=4&previews_limit=1000');
    expect(all.total_clusters).toBeGreaterThanOrEqual(1);
    for (const cluster of all.clusters) expect(cluster.n_objects).toBe(cluster.previews.length);
    const dogs = previews(await explore('entity_type=OBJECTS&threshold=0&labels=dog'));
    expect(dogs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(dogs.map((o) => o.label))).toEqual(new Set(['dog']));
  });

  it('a saved view over objects counts the media holding them', async () => {
    const body = new FormData();
    body.append('name', 'bikes');
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${copyId}/views?entity_type=OBJECTS&threshold=0&labels=bicycle`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_results: 1, stats: { n_images: 1, n_clusters: expect.any(Number) } });
    expect(res.body.stats.n_clusters).toBeGreaterThanOrEqual(1);
  });

  it('image captions mention what was detected, honestly say so when nothing was, and are searchable', async () => {
    const images = previews(await explore('threshold=4&previews_limit=10'));
    const caption = (file: string) => images.find((p) => p.file_name === file).caption as string;
    expect(caption('dog.jpg')).toMatch(/dog/i);
    expect(caption('dog.jpg')).toMatch(/bicycle/i);
    expect(caption('kite.jpg')).toMatch(/people|person/i);
    expect(caption('plain.png')).toMatch(/no (objects|recognis)/i);
    const found = previews(await explore('caption=bicycle'));
    expect(found.map((p) => p.file_name)).toEqual(['dog.jpg']);
    // The source was not changed.
    const source = (await server.api(owner.token, 'GET', `/api/v1/explore/${sourceId}?threshold=4`)).body;
    for (const p of previews(source)) expect(p.caption).toBeNull();
  });

  it('the COCO export carries the detections as annotations with their categories', async () => {
    const entries = await exportArchive(server, owner, copyId, 'file_name=coco&export_format=coco');
    const coco = JSON.parse(entries.get('annotations.json')!.bytes.toString('utf8'));
    expect(coco.images).toHaveLength(3);
    const names = new Map(coco.categories.map((c: any) => [c.id, c.name]));
    expect([...names.values()]).toEqual(expect.arrayContaining(['dog', 'bicycle', 'person']));
    const dogImage = coco.images.find((i: any) => i.file_name === 'dog.jpg');
    const onDog = coco.annotations.filter((a: any) => a.image_id === dogImage.id).map((a: any) => names.get(a.category_id));
    expect(onDog).toEqual(expect.arrayContaining(['dog', 'bicycle']));
    for (const a of coco.annotations) expect(a).toMatchObject({ id: expect.any(Number), bbox: [expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)], iscrowd: 0 });
  });

  it('a detected object can be relabelled (a new version; the creation snapshot keeps the detected class) and given its class back', async () => {
    const dog = previews(await explore('entity_type=OBJECTS&threshold=0&labels=dog')).find((o) => o.file_name === 'dog.jpg');
    const relabel = (label: string | null, user = owner, ids = [dog.object_id]) =>
      server.api(user.token, 'PUT', `/api/v1/dataset/${copyId}/objects/label`, { object_ids: ids, label });
    expect((await relabel('golden retriever', viewer)).status).toBe(403);
    const unknown = await relabel('x', owner, ['00000000-0000-4000-8000-000000000000']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe('Unknown object_ids in this dataset: 00000000-0000-4000-8000-000000000000');

    expect((await relabel('golden retriever')).body).toEqual({ matched: 1, changed: 1 });
    expect((await relabel('golden retriever')).body).toEqual({ matched: 1, changed: 0 });
    const relabelled = previews(await explore(`entity_type=OBJECTS&threshold=0&labels=${encodeURIComponent('golden retriever')}`));
    expect(relabelled.map((o) => o.object_id)).toEqual([dog.object_id]);
    expect(previews(await explore('labels=golden%20retriever')).map((p) => p.file_name)).toEqual(['dog.jpg']);

    const snapshots = (await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}/snapshot`)).body;
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${copyId}/snapshot/${snapshots[0].snapshot_id}/restore`)).status).toBe(202);
    await waitForDataset(server, owner, copyId, ['READY']);
    const restored = previews(await explore('entity_type=OBJECTS&threshold=0')).find((o) => o.object_id === dog.object_id);
    expect(restored.label).toBe('dog');

    expect((await relabel('golden retriever')).body.changed).toBe(1);
    expect((await relabel(null)).body.changed).toBe(1);
    expect(previews(await explore('entity_type=OBJECTS&threshold=0')).find((o) => o.object_id === dog.object_id).label).toBe('dog');
  });
});
