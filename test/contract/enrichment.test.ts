import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, photo, threeSceneClip, waitForDataset } from '../support/ingest.js';
import { type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { exportArchive, parquetRows } from '../support/exports.js';

/**
 * Spec 4.4 through the API, with a "bring your own" captioner: an OpenAI-compatible endpoint (a small fake
 * started here) is a real model path of its own, and lets the test hold the enrichment while it checks the
 * READ ONLY window. The built-in vision models are asserted on real photos in enrichment-builtin.test.ts.
 */
let server: TestServer;
let fake: FakeOpenAi;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let sourceId: string;
const BYO = 'openai_compatible_fake-vision-1';

const enrich = (models: Record<string, string>, id = sourceId, user = owner) =>
  server.api(user.token, 'POST', `/api/v1/dataset/${id}/enrich_dataset`, { enrichment_models: models });
const dataset = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body;
const context = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/enrichment/${id}/context`)).body;
const latestTask = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=ENRICHMENT`)).body.tasks[0];

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    env: { ENRICH_OPENAI_BASE_URL: fake.baseUrl, ENRICH_OPENAI_MODEL: 'fake-vision-1', ENRICH_OPENAI_API_KEY: 'sk-test-secret', ENRICH_OPENAI_RETRIES: '1' },
  });
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  const clip = { name: 'scenes.mp4', bytes: threeSceneClip() };
  ({ datasetId: sourceId } = await createDataset(server, owner, 'pets', [[photo('dog.jpg'), photo('kite.jpg'), photo('coffee.png'), clip]]));
  await server.api(owner.token, 'PUT', `/api/v1/manage/${sourceId}/invite`, { grant_to_user_email: viewer.email });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('models and context (spec 2.5, 2.6)', () => {
  it('lists the built-ins under the ids documented scripts use, and the configured endpoint as an Active CAPTION_IMAGES model', async () => {
    const res = await server.api(viewer.token, 'GET', `/api/v1/enrichment/${sourceId}/list_models`);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.map((m: any) => [m.id, m]));
    expect(byId.get('vl_object_detector_v00')).toMatchObject({ type: 'OBJECT_DETECTION', dependencies: null });
    expect(byId.get('vl_object_captioner_v00')).toMatchObject({ type: 'CAPTION_OBJECTS', dependencies: ['OBJECT_DETECTION'] });
    expect(byId.get('vl_image_captioner_v00')).toMatchObject({ type: 'CAPTION_IMAGES' });
    expect(byId.get(BYO)).toEqual({
      id: BYO,
      name: 'fake-vision-1 (OpenAI-compatible endpoint)',
      type: 'CAPTION_IMAGES',
      status: 'Active',
      vendor: expect.stringContaining('127.0.0.1'),
      description: expect.any(String),
      dependencies: null,
    });
    for (const model of res.body) expect(Object.keys(model).sort()).toEqual(['dependencies', 'description', 'id', 'name', 'status', 'type', 'vendor']);
    expect(res.text).not.toContain('sk-test-secret');
  });

  it('a dataset nothing was applied to has a NEW context with an empty map', async () => {
    const res = await server.api(viewer.token, 'GET', `/api/v1/enrichment/${sourceId}/context`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enrichment_context_id: expect.any(String), status: 'NEW', dataset_enrichment_models: { enrichment_models: {} } });
  });

  it('404 for a dataset the caller cannot see, 401 without a token', async () => {
    for (const path of [`/api/v1/enrichment/${sourceId}/list_models`, `/api/v1/enrichment/${sourceId}/context`]) {
      expect((await server.api(stranger.token, 'GET', path)).status).toBe(404);
      expect((await server.api(null, 'GET', path)).status).toBe(401);
    }
    expect((await enrich({ CAPTION_IMAGES: BYO }, sourceId, stranger)).status).toBe(404);
  });
});

describe('enrich_dataset errors (spec 4.4, 7)', () => {
  it('403 for a viewer, 422 for bad requests, each naming what is wrong; nothing is created', async () => {
    const before = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.length;
    expect((await enrich({ CAPTION_IMAGES: BYO }, sourceId, viewer)).status).toBe(403);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /at least one/],
      [{ SUMMARISE: BYO }, /Unknown enrichment type 'SUMMARISE'/],
      [{ CAPTION_IMAGES: 'gpt-17' }, /Unknown enrichment model 'gpt-17'/],
      [{ OBJECT_DETECTION: BYO }, /is a CAPTION_IMAGES model and cannot be applied as OBJECT_DETECTION/],
      [{ CAPTION_OBJECTS: 'vl_object_captioner_v00' }, /CAPTION_OBJECTS depends on OBJECT_DETECTION/],
    ];
    for (const [models, detail] of cases) {
      const res = await enrich(models);
      expect(res.status, JSON.stringify(models)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    const noBody = await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/enrich_dataset`, {});
    expect(noBody.status).toBe(422);
    expect((await server.api(owner.token, 'GET', '/api/v1/datasets')).body.length).toBe(before);
    expect((await dataset(sourceId)).status_new).toBe('READY');
  });
});

describe('an enrichment with the endpoint captioner', () => {
  // A finished copy the tests that only read share, and the requests its enrichment sent the endpoint.
  let enrichedId: string;
  let sent: FakeOpenAi['requests'];

  beforeAll(async () => {
    const before = fake.requests.length;
    const res = await enrich({ CAPTION_IMAGES: BYO });
    if (res.status !== 200) throw new Error(`enrich_dataset: ${res.status} ${res.text}`);
    enrichedId = res.body.dataset_id;
    await waitForDataset(server, owner, enrichedId, ['READY', 'ERROR']);
    sent = fake.requests.slice(before);
  }, 120_000);

  it('answers 200 with the copy at once, holds the source READ ONLY while the task runs, and 409s what would change it', async () => {
    fake.hold();
    const before = fake.requests.length;
    const res = await enrich({ CAPTION_IMAGES: BYO });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dataset_id: expect.any(String) });
    const copyId = res.body.dataset_id;
    expect(copyId).not.toBe(sourceId);

    const copy = await dataset(copyId);
    expect(copy).toMatchObject({ display_name: 'pets (enriched)', status_new: 'INDEXING', source_dataset_id: sourceId });
    expect((await server.api(owner.token, 'GET', '/api/v1/datasets')).body.map((d: any) => d.id)).toContain(copyId);
    expect((await dataset(sourceId)).status_new).toBe('READ ONLY');
    // The requests of beforeAll's enrichment are still counted: wait for this task's own.
    await waitFor(async () => (fake.requests.length > before ? true : undefined), 30_000, 'the endpoint called');
    expect(await latestTask(copyId)).toMatchObject({ task_type: 'ENRICHMENT', status: 'RUNNING', dataset_id: copyId });
    expect((await context(copyId)).status).toBe('IN_PROGRESS');

    const again = await enrich({ CAPTION_IMAGES: BYO });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("Operation 'enrich_dataset' is blocked while ENRICHMENT task is running");
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/snapshot`, {})).status).toBe(409);
    const add = await server.api(owner.token, 'POST', `/api/v1/dataset/${sourceId}/add_media`, form([photo('horses.jpg')]));
    expect(add.status).toBe(409);
    expect(add.body.detail).toBe("Operation 'add_media' is blocked while ENRICHMENT task is running");
    // Reads of the source keep working meanwhile.
    expect((await server.api(owner.token, 'GET', `/api/v1/explore/${sourceId}`)).status).toBe(200);

    fake.release();
    const done = await waitForDataset(server, owner, copyId, ['READY', 'ERROR']);
    expect(done).toMatchObject({ status_new: 'READY', n_images: 3, n_videos: 1, progress: 100 });
    expect((await dataset(sourceId)).status_new).toBe('READY');
    expect(await latestTask(copyId)).toMatchObject({ status: 'COMPLETED', progress_percentage: 100 });
  });

  it('sent each image and video frame once, as a data URL, with the key and the model', () => {
    expect(sent).toHaveLength(6);
    for (const { authorization, body } of sent) {
      expect(authorization).toBe('Bearer sk-test-secret');
      expect(body.model).toBe('fake-vision-1');
      expect(body.messages[0].content[1].image_url.url).toMatch(/^data:image\/(jpeg|png);base64,/);
    }
  });

  it('the copy shows the captions in Explore, finds them by caption search, and its context says what was applied', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/explore/${enrichedId}?threshold=4&previews_limit=10`);
    const previews = res.body.clusters.flatMap((c: any) => c.previews);
    expect(previews).toHaveLength(6);
    for (const p of previews) expect(p.caption).toMatch(/^A photo of a zebracorn, \d+ bytes\.$/);
    expect(res.body.clusters.flatMap((c: any) => c.captions).length).toBeGreaterThanOrEqual(1);

    const found = await server.api(owner.token, 'GET', `/api/v1/explore/${enrichedId}?caption=ZEBRACORN`);
    expect(found.body.clusters.flatMap((c: any) => c.previews)).toHaveLength(6);
    const none = await server.api(owner.token, 'GET', `/api/v1/explore/${sourceId}?caption=zebracorn`);
    expect(none.body.clusters).toEqual([]);
    // One query over both texts: a word of the file name and one of the caption, and a word in neither negated.
    const fts = async (value: string) =>
      (await server.api(owner.token, 'GET', `/api/v1/explore/${enrichedId}?threshold=4&vql=${encodeURIComponent(JSON.stringify([{ text: { op: 'fts', value } }]))}`)).body.clusters
        .flatMap((c: any) => c.previews)
        .map((p: any) => p.file_name)
        .sort();
    expect(await fts('kite zebracorn')).toEqual(['kite.jpg']);
    expect(await fts('"kite jpg" -unicorn')).toEqual(['kite.jpg']);
    expect(await fts('kite -zebracorn')).toEqual([]);

    expect(await context(enrichedId)).toEqual({
      enrichment_context_id: expect.any(String),
      status: 'COMPLETED',
      dataset_enrichment_models: { enrichment_models: { CAPTION_IMAGES: BYO } },
    });
    expect((await context(sourceId)).status).toBe('NEW');
    const snapshots = (await server.api(owner.token, 'GET', `/api/v1/dataset/${enrichedId}/snapshot`)).body;
    expect(snapshots).toHaveLength(1);
  });

  it('exports carry the captions, as a typed Parquet column; a video takes its first frame caption', async () => {
    const entries = await exportArchive(server, owner, enrichedId, 'file_name=enriched&export_format=parquet');
    const rows = await parquetRows(entries.get('metadata.parquet')!.bytes);
    expect(rows).toHaveLength(7);
    for (const row of rows) expect(row).toMatchObject({ caption: expect.stringMatching(/zebracorn/), n_objects: 0, object_labels: [], objects: '[]' });
    const video = rows.find((r) => r.media_type === 'VIDEO')!;
    const first = rows.filter((r) => r.video_id === video.media_id).sort((a, b) => Number(a.frame_timestamp) - Number(b.frame_timestamp))[0]!;
    expect(video.caption).toBe(first.caption);
  });

  it('a failing endpoint leaves the copy in ERROR with the reason and the source READY and untouched', async () => {
    fake.answerWith(503);
    const res = await enrich({ CAPTION_IMAGES: BYO });
    expect(res.status).toBe(200);
    const failed = await waitForDataset(server, owner, res.body.dataset_id, ['READY', 'ERROR']);
    expect(failed.status_new).toBe('ERROR');
    expect(failed.fatal_error_msg).toMatch(/answered 503/);
    expect(await latestTask(res.body.dataset_id)).toMatchObject({ status: 'FAILED', error_message: expect.stringMatching(/503/) });
    expect((await context(res.body.dataset_id)).status).toBe('FAILED');
    expect(await dataset(sourceId)).toMatchObject({ status_new: 'READY', n_images: 3, n_videos: 1 });
    fake.answerWith(200);
  });
});
