import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { type UploadFile, createDataset, form, photo } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';

const SOURCES = ['astronaut.png', 'chelsea.png', 'coffee.png', 'dog.jpg', 'horses.jpg', 'kite.jpg', 'person.jpg'];
const sourceOf = (fileName: string) => fileName.split(/[-.]/)[0]!;

let server: TestServer;
let owner: TestUser;
let stranger: TestUser;
let datasetId: string;
/** file name → media id */
const ids = new Map<string, string>();
const names = new Map<string, string>();

async function photosWithEdits(): Promise<UploadFile[]> {
  const files: UploadFile[] = [];
  for (const name of SOURCES) {
    const original = photo(name);
    files.push(original);
    for (const [edit, apply] of Object.entries(PHOTO_EDITS)) files.push({ name: `${sourceOf(name)}-${edit}.jpg`, bytes: await apply(original.bytes) });
  }
  return files;
}

const explore = (query: string, user = owner) => server.api(user.token, 'GET', `/api/v1/explore/${datasetId}?${query}`);
const members = (cluster: { previews: Array<{ media_id: string }> }) => cluster.previews.map((p) => names.get(p.media_id)!);

beforeAll(async () => {
  server = await startTestServer();
  [owner, stranger] = await Promise.all([server.createUser(), server.createUser()]);
  const files = await photosWithEdits();
  const created = await createDataset(server, owner, 'explore', [files.slice(0, 18), files.slice(18)]);
  expect(created.dataset).toMatchObject({ status_new: 'READY', n_images: 35 });
  datasetId = created.datasetId;
  const list = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=100`);
  for (const m of list.body.media) {
    ids.set(m.file_name, m.media_id);
    names.set(m.media_id, m.file_name);
  }
}, 180_000);
afterAll(() => server?.close());

describe('clusters', () => {
  it('groups every photo with its edits at level 0 and keeps distinct photos apart', async () => {
    const res = await explore('threshold=0');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page_number: 0, threshold: 0, entity_type: 'IMAGES', clusters_per_page: 100 });
    const bySource = new Map<string, Set<string>>();
    for (const cluster of res.body.clusters) {
      expect(cluster).toMatchObject({ cluster_id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'IMAGES', n_objects: 0, n_videos: 0 });
      expect(cluster.n_images).toBe(cluster.previews.length);
      for (const name of members(cluster)) {
        const clustersOfSource = bySource.get(sourceOf(name)) ?? new Set();
        clustersOfSource.add(cluster.cluster_id);
        bySource.set(sourceOf(name), clustersOfSource);
      }
      expect(new Set(members(cluster).map(sourceOf)).size).toBe(1);
    }
    expect([...bySource.values()].map((s) => s.size)).toEqual(SOURCES.map(() => 1));
    expect(res.body.total_clusters).toBe(SOURCES.length);
  });

  it('nests coarser levels over finer ones, with stable ids', async () => {
    const fine = (await explore('threshold=0&previews_limit=1000')).body;
    for (const level of [1, 2, 3, 4]) {
      const coarse = (await explore(`threshold=${level}&previews_limit=1000`)).body;
      expect(coarse.total_clusters).toBeLessThanOrEqual(fine.total_clusters);
      const clusterOf = new Map<string, string>();
      for (const c of coarse.clusters) for (const p of c.previews) clusterOf.set(p.media_id, c.cluster_id);
      for (const c of fine.clusters) expect(new Set(c.previews.map((p: { media_id: string }) => clusterOf.get(p.media_id))).size).toBe(1);
    }
    expect((await explore('threshold=0')).body.clusters.map((c: { cluster_id: string }) => c.cluster_id)).toEqual(fine.clusters.map((c: { cluster_id: string }) => c.cluster_id));
  });

  it('describes each preview with links, scores and issues', async () => {
    const preview = (await explore('threshold=0')).body.clusters[0].previews[0];
    expect(preview).toMatchObject({
      type: 'IMAGE',
      media_uri: expect.stringContaining(`/api/v1/dataset/${datasetId}/media/${preview.media_id}/original?expires=`),
      media_thumb_uri: expect.stringContaining('/thumbnail?expires='),
      caption: null,
      relevance_score: null,
      issues: expect.arrayContaining(['duplicates']),
    });
    const all = (await explore('threshold=4&previews_limit=1000')).body.clusters.flatMap((c: { previews: unknown[] }) => c.previews);
    expect(all).toHaveLength(35);
    for (const p of all) expect(p.uniqueness_score).toBeGreaterThanOrEqual(0);
    expect(Math.max(...all.map((p: { uniqueness_score: number }) => p.uniqueness_score))).toBe(1);
    expect(all.filter((p: { issues: string[] }) => p.issues.includes('outliers'))).toHaveLength(1); // 5 % of 35
  });

  it('limits previews per cluster and pages clusters', async () => {
    const res = await explore('threshold=0&previews_limit=2');
    for (const c of res.body.clusters) {
      expect(c.previews).toHaveLength(2);
      expect(c.n_images).toBe(5);
    }
    expect((await explore('threshold=0&page_number=1')).body).toMatchObject({ clusters: [], page_number: 1, total_clusters: 7 });
  });

  it('lists the duplicate group of a media item', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('dog.jpg')}/duplicates`);
    expect(res.status).toBe(200);
    expect(res.body.duplicates.map((id: string) => names.get(id)).sort()).toEqual(Object.keys(PHOTO_EDITS).map((e) => `dog-${e}.jpg`).sort());
  });
});

describe('filters', () => {
  const names0 = async (query: string) => (await explore(`threshold=0&${query}`)).body.clusters.flatMap(members).sort();

  it('file name, full-text search and media type', async () => {
    expect(await names0('file_name=DOG')).toHaveLength(5);
    expect((await names0(`vql=${encodeURIComponent(JSON.stringify([{ text: { op: 'fts', value: 'horse' } }]))}`)).map(sourceOf)).toEqual(Array(5).fill('horses'));
    expect(await names0('caption=kites')).toHaveLength(5);
    expect(await names0('media_type=VIDEO')).toEqual([]);
  });

  it('full-text search: negated words, OR, words matching nothing, and every value at once', async () => {
    const fts = (...values: string[]) => names0(`vql=${encodeURIComponent(JSON.stringify(values.map((value) => ({ text: { op: 'fts', value } }))))}`);
    const all = await names0('');
    expect(all).toHaveLength(35);
    expect(await fts('-horses')).toEqual(all.filter((n: string) => sourceOf(n) !== 'horses'));
    expect(new Set((await fts('horses or kite')).map(sourceOf))).toEqual(new Set(['horses', 'kite']));
    expect(await fts('zebra')).toEqual([]);
    expect(await fts('horses', 'kite')).toEqual([]);
    expect((await fts('horses', '-kite')).map(sourceOf)).toEqual(Array(5).fill('horses'));
  });

  it('each issue asked for, or left out, is exactly the previews showing it', async () => {
    const vql = (filters: unknown[]) => `vql=${encodeURIComponent(JSON.stringify(filters))}`;
    const all = (await explore('threshold=0&previews_limit=1000')).body.clusters.flatMap((c: { previews: unknown[] }) => c.previews);
    const showing = (issue: string) => all.filter((p: { issues: string[] }) => p.issues.includes(issue)).map((p: { media_id: string }) => names.get(p.media_id)!).sort();
    expect(showing('outliers')).toHaveLength(1);
    expect(showing('blur').length).toBeGreaterThan(0);
    for (const issue of ['blur', 'dark', 'bright', 'outliers', 'duplicates']) {
      const shown = showing(issue);
      expect(await names0(vql([{ issues: { op: 'issue', value: issue, mode: 'in' } }]))).toEqual(shown);
      expect(await names0(vql([{ issues: { op: 'issue', value: issue, mode: 'out' } }]))).toHaveLength(35 - shown.length);
    }
  });

  it('issues, uniqueness and duplicates from vql', async () => {
    const vql = (filters: unknown[]) => `vql=${encodeURIComponent(JSON.stringify(filters))}`;
    expect(await names0(vql([{ issues: { op: 'issue', value: 'duplicates', mode: 'in' } }]))).toHaveLength(35);
    expect(await names0(vql([{ issues: { op: 'issue', value: 'outliers', mode: 'out' } }]))).toHaveLength(34);
    expect(await names0(vql([{ uniqueness: { op: 'uniqueness', value: 1 } }]))).toHaveLength(1);
    expect(await names0(vql([{ duplicates: { op: 'duplicates', value: 0.99 } }, { text: { op: 'fts', value: 'dog' } }])).then((n) => n.length)).toBeLessThan(5);
    expect(await names0(vql([{ labels: { op: 'one_of', value: ['cat'] } }]))).toEqual([]);
  });

  it('semantic text matches meaning through offline word vectors', async () => {
    const res = await explore(`threshold=0&vql=${encodeURIComponent(JSON.stringify([{ text: { op: 'semantic', value: 'puppy' } }]))}`);
    const found = res.body.clusters.flatMap(members);
    expect(found).toContain('dog.jpg');
    expect(found.map(sourceOf).filter((s: string) => s === 'coffee' || s === 'astronaut')).toEqual([]);
    expect(res.body.clusters[0].previews[0].relevance_score_type).toBe('semantic_distance');
    const caption = await explore('threshold=0&caption=puppy&textual_similarity_threshold=0.6');
    expect(caption.body.clusters.flatMap(members).sort()).toEqual([...found].sort());
  });

  it('rejects bad input with 422 and hides the dataset from strangers', async () => {
    expect((await explore('vql=%5B%7B%22nope%22%3A1%7D%5D')).status).toBe(422);
    expect((await explore('vql=not-json')).body.detail).toMatch(/vql/);
    expect((await explore('threshold=5')).status).toBe(422);
    expect((await explore('min_uniqueness=0.9&max_uniqueness=0.1')).status).toBe(422);
    expect(await explore('threshold=0', stranger)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    const fresh = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=empty')).body.dataset_id;
    expect(await server.api(owner.token, 'GET', `/api/v1/explore/${fresh}`)).toMatchObject({ status: 409, body: { detail: `Dataset ${fresh} has no index yet; explore it once it is READY` } });
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${fresh}/duplicates`)).status).toBe(404);
  });
});

describe('similarity', () => {
  it('ranks by distance to a media anchor', async () => {
    const res = await explore(`anchor_media_id=${ids.get('dog.jpg')}&anchor_type=MEDIA`);
    expect(res.status).toBe(200);
    const first = res.body.clusters[0];
    expect(members(first).map(sourceOf)).toEqual(Array(5).fill('dog'));
    expect(first.previews[0]).toMatchObject({ media_id: ids.get('dog.jpg'), relevance_score_type: 'cosine_distance' });
    const scores = first.previews.map((p: { relevance_score: number }) => p.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(scores[0]).toBeLessThan(0.01);
  });

  it('embeds an uploaded image as an anchor, whole or by bounding box', async () => {
    const edited = await sharp(photo('horses.jpg').bytes).resize(400).modulate({ brightness: 0.9 }).jpeg({ quality: 50 }).toBuffer();
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/search-image-similarity`, form([{ name: 'query.jpg', bytes: edited, field: 'file' }]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ anchor_media_id: expect.any(String), anchor_type: 'UPLOAD' });
    const found = await explore(`anchor_media_id=${res.body.anchor_media_id}&anchor_type=UPLOAD`);
    expect(members(found.body.clusters[0]).map(sourceOf)).toEqual(Array(5).fill('horses'));

    const boxed = form([{ name: 'query.jpg', bytes: edited, field: 'file' }]);
    boxed.append('bounding_box', '0,0,200,150');
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/search-image-similarity`, boxed)).status).toBe(200);
  });

  it('refuses a missing file, a bad box, an unknown anchor and strangers', async () => {
    const url = `/api/v1/dataset/${datasetId}/search-image-similarity`;
    expect((await server.api(owner.token, 'POST', url, new FormData())).status).toBe(400);
    const bad = form([photo('dog.jpg')].map((f) => ({ ...f, field: 'file' })));
    bad.append('bounding_box', '1,2,3');
    expect((await server.api(owner.token, 'POST', url, bad)).status).toBe(422);
    expect((await server.api(stranger.token, 'POST', url, form([{ ...photo('dog.jpg'), field: 'file' }]))).status).toBe(404);
    expect((await explore(`anchor_media_id=${datasetId}&anchor_type=UPLOAD`)).status).toBe(404);
  });
});
