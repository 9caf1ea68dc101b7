import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type UploadFile, createDataset, form, generatedJpegs, photo } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { readZip } from '../support/zip.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;
let uploads: UploadFile[];

type Item = Record<string, any>;

const startFull = (query: string, user = owner, id = datasetId) => server.api(user.token, 'GET', `/api/v1/dataset/${id}/export_context_async?${query}`);
const startSelective = (query: string, body: unknown, user = owner) => server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/export_entities_async?${query}`, body);
const status = (exportId: string, user = owner, id = datasetId) => server.api(user.token, 'GET', `/api/v1/dataset/${id}/export_status?export_task_id=${exportId}`);

/** The documented client flow: poll export_status until COMPLETED or FAILED, download following redirects, unzip. */
async function finished(exportId: string, user = owner, id = datasetId) {
  const done = await waitFor(async () => {
    const res = await status(exportId, user, id);
    return ['COMPLETED', 'FAILED', 'REJECTED'].includes(res.body.status) ? res.body : undefined;
  }, 60_000, 'export finished');
  if (done.status !== 'COMPLETED') return { done, entries: new Map() };
  const res = await fetch(done.download_uri, { redirect: 'follow' });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  const bytes = Buffer.from(await res.arrayBuffer());
  return { done, entries: await readZip(bytes), res, bytes };
}

const jsonItems = (entries: Map<string, { bytes: Buffer }>) => JSON.parse(entries.get('metadata.json')!.bytes.toString('utf8'));
const mediaIds = async (id = datasetId) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${id}/media?limit=100`);
  return new Map<string, string>(res.body.media.map((m: { file_name: string; media_id: string }) => [m.file_name, m.media_id]));
};

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  const [a, b] = await generatedJpegs(2);
  const dogHalf = { name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(photo('dog.jpg').bytes) };
  uploads = [photo('dog.jpg'), dogHalf, photo('horses.jpg'), photo('person.jpg'), { ...a!, name: 'same.jpg' }, { ...b!, name: 'Same.JPG' }];
  ({ datasetId } = await createDataset(server, owner, 'exported', [uploads.slice(0, 5), uploads.slice(5)]));
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
}, 180_000);
afterAll(() => server?.close());

describe('a whole export (spec 4.3, 2.4)', () => {
  it('JSON with images: the archive holds metadata.json and images/{image_filename} for every row, byte for byte', async () => {
    const started = await startFull('file_name=my%20export&export_format=json&include_images=true');
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ id: expect.any(String) });
    expect(['PENDING', 'COMPLETED']).toContain((await status(started.body.id)).body.status);
    const { done, entries, res } = await finished(started.body.id);
    expect(done).toMatchObject({ status: 'COMPLETED', result_message: 'Exported 6 media item(s) with their files', progress: 100 });
    expect(res!.headers.get('content-disposition')).toContain('filename="my export.zip"');

    const json: { info: Item; media_items: Item[] } = jsonItems(entries);
    expect(json.info).toMatchObject({ schema_version: '1.1', dataset: 'exported', dataset_id: datasetId, exported_by: owner.email, description: '', total_media_items: 6 });
    expect(Date.parse(json.info.export_time)).not.toBeNaN();
    expect(Date.parse(json.info.dataset_creation_time)).toBeLessThanOrEqual(Date.parse(json.info.export_time));
    expect(json.media_items).toHaveLength(6);
    const names = json.media_items.map((m) => m.image_filename);
    expect(new Set(names.map((n: string) => n.toLowerCase())).size).toBe(6);
    expect(names).toContain('dog.jpg');
    expect(names.filter((n: string) => /^same_[0-9a-f-]{36}\.jpg$/i.test(n))).toHaveLength(2);
    expect(entries.get('metadata.json')!.method).toBe(8);
    for (const item of json.media_items) {
      const entry = entries.get(`images/${item.image_filename}`);
      expect(entry, item.image_filename).toBeDefined();
      expect(entry!.method).toBe(0);
      expect(entry!.bytes.equals(uploads.find((u) => u.name === item.file_name)!.bytes)).toBe(true);
      expect(item).toMatchObject({
        media_type: 'image',
        file_path: item.file_name,
        file_size: `${(entry!.bytes.length / 1024).toFixed(2)}KB`,
        file_size_bytes: entry!.bytes.length,
        url: `images/${item.image_filename}`,
        media_uri: `images/${item.image_filename}`,
      });
      expect(item.uniqueness_score).toBeGreaterThanOrEqual(0);
      expect(item.uniqueness_score).toBeLessThanOrEqual(1);
      for (const key of ['media_id', 'cluster_id', 'cluster_id_l4', 'width', 'height', 'is_outlier', 'quality_flags', 'duplicate_group_id', 'captured_at']) expect(item).toHaveProperty(key);
    }
    const dog = json.media_items.find((m) => m.file_name === 'dog.jpg')!;
    const half = json.media_items.find((m) => m.file_name === 'dog-half.jpg')!;
    expect(half.cluster_id).toBe(dog.cluster_id);
    expect(half.duplicate_group_id).toBe(dog.duplicate_group_id);
    expect(entries.size).toBe(7);
  });

  it('Parquet without images: the same rows, typed, and no images/ folder', async () => {
    const json: { media_items: Item[] } = jsonItems((await finished((await startFull('file_name=rows&export_format=json')).body.id)).entries);
    const started = await startFull('file_name=meta&export_format=parquet');
    const { entries } = await finished(started.body.id);
    expect([...entries.keys()]).toEqual(['metadata.parquet']);
    const buffer = entries.get('metadata.parquet')!.bytes;
    const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    const rows = (await parquetReadObjects({ file })) as Item[];
    expect(rows.map((r) => r.media_id).sort()).toEqual(json.media_items.map((m) => m.media_id).sort());
    const dog = rows.find((r) => r.file_name === 'dog.jpg')!;
    const fromJson = json.media_items.find((m) => m.file_name === 'dog.jpg')!;
    expect(typeof dog.uniqueness_score).toBe('number');
    expect(dog.uniqueness_score).toBeCloseTo(fromJson.uniqueness_score, 5);
    expect(Number(dog.file_size)).toBe(fromJson.file_size_bytes);
    expect(Number(dog.file_size)).toBe(uploads.find((u) => u.name === 'dog.jpg')!.bytes.length);
    expect(dog.media_type).toBe('IMAGE');
    expect(Array.isArray(dog.quality_flags)).toBe(true);
    expect(dog).toMatchObject({ image_filename: 'dog.jpg', cluster_id: fromJson.cluster_id, is_outlier: fromJson.is_outlier, media_uri: null, width: fromJson.width });
  });

  it("JSON items have the docs' shape: their fields in the docs' order, and issues in metadata_items", async () => {
    const json: { media_items: Item[] } = jsonItems((await finished((await startFull('file_name=docs&export_format=json')).body.id)).entries);
    const docsFields = ['media_id', 'media_type', 'file_name', 'file_path', 'file_size', 'file_size_bytes', 'height', 'width', 'url', 'cluster_id', 'uniqueness_score', 'metadata_items'];
    for (const item of json.media_items) expect(Object.keys(item).slice(0, docsFields.length)).toEqual(docsFields);
    // The docs' own analysis snippet (has_duplicate_issue), run on the export.
    const duplicateIssue = (item: Item) =>
      (item.metadata_items as Item[]).find((m) => m.type === 'issue' && m.properties?.issue_type === 'duplicates' && (m.properties?.confidence ?? 0) > 0.8);
    const dog = json.media_items.find((m) => m.file_name === 'dog.jpg')!;
    const half = json.media_items.find((m) => m.file_name === 'dog-half.jpg')!;
    for (const twin of [dog, half]) {
      expect(duplicateIssue(twin)).toEqual({
        type: 'issue',
        properties: { issue_type: 'duplicates', confidence: expect.any(Number), duplicate_group_id: dog.duplicate_group_id },
      });
      expect(duplicateIssue(twin)!.properties.confidence).toBeLessThanOrEqual(1);
    }
    for (const item of json.media_items) {
      const duplicates = (item.metadata_items as Item[]).filter((m) => m.properties.issue_type === 'duplicates');
      expect(duplicates.map((m) => m.properties.duplicate_group_id)).toEqual(item.duplicate_group_id === null ? [] : [item.duplicate_group_id]);
      for (const entry of item.metadata_items as Item[]) expect(['issue', 'user_tag', 'image_label', 'caption', 'object_label', 'video_info']).toContain(entry.type);
      expect((item.metadata_items as Item[]).some((m) => m.properties.issue_type === 'outliers')).toBe(item.is_outlier);
    }
  });

  it('CSV and COCO (extensions)', async () => {
    const csv = await finished((await startFull('file_name=c&export_format=csv')).body.id);
    const lines = csv.entries.get('metadata.csv')!.bytes.toString('utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^media_id,media_type,image_filename,file_name,/);
    expect(lines).toHaveLength(7);
    const coco = await finished((await startFull('file_name=c&export_format=coco&include_images=true')).body.id);
    const annotations = JSON.parse(coco.entries.get('annotations.json')!.bytes.toString('utf8'));
    expect(annotations.images).toHaveLength(6);
    expect(annotations).toMatchObject({ annotations: [], categories: [] });
    for (const image of annotations.images) expect(coco.entries.has(`images/${image.file_name}`)).toBe(true);
  });

  it('serves a Range of the archive and refuses a tampered link; a viewer may export', async () => {
    const started = await startFull('file_name=v&export_format=json', viewer);
    expect(started.status).toBe(200);
    const { done } = await finished(started.body.id, viewer);
    const part = await fetch(done.download_uri, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('PK\u0003\u0004');
    const tampered = await fetch(done.download_uri.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ detail: 'Invalid or expired download link' });
  });
});

describe("tags and labels in the docs' JSON form", () => {
  it('a tag is a user_tag and a label an image_label in metadata_items; Parquet keeps them typed', async () => {
    const ids = await mediaIds();
    const tagged = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: ['spider'], media_ids: [ids.get('horses.jpg')] });
    expect(tagged).toMatchObject({ status: 200, body: { matched: 1, changed: 1 } });
    const labelled = await server.api(owner.token, 'PUT', `/api/v1/dataset/${datasetId}/media/label`, { label: 'horse', media_ids: [ids.get('horses.jpg')] });
    expect(labelled).toMatchObject({ status: 200, body: { matched: 1, changed: 1 } });

    const { entries } = await finished((await startFull('file_name=t&export_format=json')).body.id);
    const horses = (jsonItems(entries).media_items as Item[]).find((m) => m.file_name === 'horses.jpg')!;
    expect(horses.metadata_items).toEqual(
      expect.arrayContaining([
        { type: 'user_tag', properties: { tag_name: 'spider' } },
        { type: 'image_label', properties: { category_name: 'horse', source: 'User' } },
      ]),
    );
    expect(horses.url).toBeNull();
    const parquet = await finished((await startFull('file_name=t&export_format=parquet')).body.id);
    const buffer = parquet.entries.get('metadata.parquet')!.bytes;
    const rows = (await parquetReadObjects({ file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer })) as Item[];
    expect(rows.find((r) => r.file_name === 'horses.jpg')).toMatchObject({ tags: ['spider'], label: 'horse' });
  });
});

describe('a selective export (spec 4.3)', () => {
  it('exports the union of media lists and clusters less their exclusions, each item once', async () => {
    const ids = await mediaIds();
    const dogCluster = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('dog.jpg')}`)).body.cluster_ids[0];
    const body = {
      media_selection: [
        { type: 'media', payload: { media_ids: [ids.get('horses.jpg'), ids.get('person.jpg')] } },
        { type: 'cluster', payload: { cluster_id: dogCluster, cluster_filters: { entity_type: 'IMAGES' }, exclude_media_ids: [ids.get('dog-half.jpg')] } },
        { type: 'media', payload: { media_ids: [ids.get('horses.jpg')] } },
      ],
    };
    const started = await startSelective('export_format=json&include_images=true', body);
    expect(started.status).toBe(200);
    const { entries } = await finished(started.body.id);
    const items = jsonItems(entries).media_items as Item[];
    expect(items.map((m) => m.file_name).sort()).toEqual(['dog.jpg', 'horses.jpg', 'person.jpg']);
    expect(jsonItems(entries).info.total_media_items).toBe(3);
    expect([...entries.keys()].sort()).toEqual(['images/dog.jpg', 'images/horses.jpg', 'images/person.jpg', 'metadata.json']);
  });

  it('names unknown media and cluster ids in a 422, and refuses an empty selection', async () => {
    const ids = await mediaIds();
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const badMedia = await startSelective('export_format=json', { media_selection: [{ type: 'media', payload: { media_ids: [ids.get('dog.jpg'), unknown] } }] });
    expect(badMedia.status).toBe(422);
    expect(badMedia.body).toEqual({ detail: `Unknown media_ids in this dataset: ${unknown}` });
    const badCluster = await startSelective('export_format=json', { media_selection: [{ type: 'cluster', payload: { cluster_id: unknown, cluster_filters: { entity_type: 'IMAGES' }, exclude_media_ids: [] } }] });
    expect(badCluster.status).toBe(422);
    expect(badCluster.body.detail).toContain(unknown);
    for (const selection of [[], [{ type: 'media', payload: { media_ids: [] } }], [{ type: 'album', payload: {} }]]) {
      const res = await startSelective('export_format=json', { media_selection: selection });
      expect(res.status, JSON.stringify(selection)).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await startSelective('export_format=json', {})).status).toBe(422);
  });
});

describe('errors and states', () => {
  it('422 for missing or invalid parameters, 404 for unknown or invisible datasets and exports', async () => {
    expect((await startFull('export_format=json')).status).toBe(422);
    expect((await startFull('file_name=x')).status).toBe(422);
    expect((await startFull('file_name=x&export_format=xml')).body.detail).toMatch(/export_format/);
    expect((await startFull('file_name=x&export_format=json', stranger)).status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await startFull('file_name=x&export_format=json', owner, unknown)).body).toEqual({ detail: 'Dataset not found' });
    expect((await status(unknown)).status).toBe(404);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/export_status`)).status).toBe(422);
    const other = await createDataset(server, owner, 'other', [[photo('kite.jpg')]]);
    const theirs = (await startFull('file_name=x&export_format=json', owner, other.datasetId)).body.id;
    expect((await status(theirs)).body).toEqual({ detail: 'Export not found (finished exports expire)' });
    expect((await status(theirs, stranger, other.datasetId)).status).toBe(404);
  });

  it('an export started before media are added holds exactly the pre-add state; a PARTIAL INDEX dataset is a 409', async () => {
    // Adding media changes the dataset, so this test has one of its own.
    const { datasetId: id } = await createDataset(server, owner, 'pinned', [uploads]);
    const before = [...(await mediaIds(id)).values()].sort();
    const started = await startFull('file_name=pinned&export_format=json&include_images=true', owner, id);
    const added = await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/add_media`, form([photo('coffee.png'), photo('chelsea.png')]));
    expect(added.status).toBe(202);
    const during = await startFull('file_name=x&export_format=json', owner, id);
    expect(during.status).toBe(409);
    const { entries } = await finished(started.body.id, owner, id);
    expect((jsonItems(entries).media_items as Item[]).map((m) => m.media_id).sort()).toEqual(before);
    expect(entries.has('images/coffee.png')).toBe(false);

    await waitFor(async () => ((await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body.status_new === 'PARTIAL INDEX' ? true : undefined), 60_000, 'PARTIAL INDEX');
    const partial = await startFull('file_name=x&export_format=json', owner, id);
    expect(partial.status).toBe(409);
    expect(partial.body).toEqual({ detail: 'Export needs the dataset READY; it is PARTIAL INDEX' });
  });

  it('refuses an export over EXPORT_MAX_ITEMS up front as REJECTED; finished exports expire', async () => {
    const small = await startTestServer({ env: { EXPORT_MAX_ITEMS: '1', EXPORT_TTL_SECONDS: '2' } });
    try {
      const user = await small.createUser();
      const { datasetId: id } = await createDataset(small, user, 'two', [[photo('dog.jpg'), photo('kite.jpg')]]);
      const started = await small.api(user.token, 'GET', `/api/v1/dataset/${id}/export_context_async?file_name=x&export_format=json`);
      expect(started.status).toBe(200);
      const res = await small.api(user.token, 'GET', `/api/v1/dataset/${id}/export_status?export_task_id=${started.body.id}`);
      expect(res.body).toEqual({ status: 'REJECTED', download_uri: null, result_message: 'Export of 2 media items exceeds the limit of 1; export a selection instead', progress: 0 });

      const media = (await small.api(user.token, 'GET', `/api/v1/dataset/${id}/media`)).body.media;
      const one = await small.api(user.token, 'POST', `/api/v1/dataset/${id}/export_entities_async?export_format=json`, {
        media_selection: [{ type: 'media', payload: { media_ids: [media[0].media_id] } }],
      });
      const statusOf = (exportId: string) => small.api(user.token, 'GET', `/api/v1/dataset/${id}/export_status?export_task_id=${exportId}`);
      const link = await waitFor(async () => {
        const s = (await statusOf(one.body.id)).body;
        return s.status === 'COMPLETED' ? (s.download_uri as string) : undefined;
      }, 30_000, 'export completed');
      // Two seconds after they finished the sweep removes both; the signed link then answers 410.
      await waitFor(async () => ((await statusOf(one.body.id)).status === 404 ? true : undefined), 10_000, 'expired');
      expect((await statusOf(started.body.id)).status).toBe(404);
      expect((await fetch(link)).status).toBe(410);
    } finally {
      await small.close();
    }
  });
});
