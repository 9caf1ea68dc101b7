import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UploadFile, createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

/**
 * Issue 29's embedding map over HTTP, on fixture photos and edits of them: near-duplicates land close, pages and
 * rectangles return exactly their points, a lasso selects exactly the points inside it and feeds Explore and tagging
 * through VQL, the map survives a snapshot and a clone, and media added without a reindex are placed.
 */

let server: TestServer;
let owner: TestUser;
let datasetId: string;

interface Point {
  id: string;
  name: string;
  x: number;
  y: number;
  cluster: string;
}

const url = (path: string, id = datasetId) => `/api/v1/dataset/${id}${path}`;
const ORIGINALS = ['dog.jpg', 'horses.jpg', 'person.jpg', 'chelsea.png', 'coffee.png', 'astronaut.png', 'kite.jpg'];
/** Each edit and the photo it was made from. */
const EDITS: Record<string, string> = { 'dog-crop.jpg': 'dog.jpg', 'horses-half.jpg': 'horses.jpg', 'person-mirror.jpg': 'person.jpg' };

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  const edits: UploadFile[] = [
    { name: 'dog-crop.jpg', bytes: await PHOTO_EDITS.crop84!(photo('dog.jpg').bytes) },
    { name: 'horses-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(photo('horses.jpg').bytes) },
    { name: 'person-mirror.jpg', bytes: await PHOTO_EDITS['mirror-bright']!(photo('person.jpg').bytes) },
  ];
  const created = await createDataset(server, owner, 'map', [[...ORIGINALS.map(photo), ...edits]]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
}, 120_000);
afterAll(() => server?.close());

async function names(id = datasetId): Promise<Map<string, string>> {
  const list = await server.api(owner.token, 'GET', url('/media?limit=100', id));
  return new Map(list.body.media.map((m: { file_name: string; media_id: string }) => [m.media_id, m.file_name]));
}

/** Every point of the map, read page by page. */
async function allPoints(id = datasetId, query = '', limit = 100): Promise<Point[]> {
  const byId = await names(id);
  const points: Point[] = [];
  let cursor: string | null = null;
  do {
    const res = await server.api(owner.token, 'GET', url(`/map?threshold=0&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}${query}`, id));
    expect(res.status, res.text).toBe(200);
    const p = res.body.points;
    p.media_id.forEach((mediaId: string, i: number) => points.push({ id: mediaId, name: byId.get(mediaId)!, x: p.x[i], y: p.y[i], cluster: res.body.clusters[p.cluster[i]] }));
    cursor = res.body.next_cursor;
  } while (cursor);
  return points;
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const byName = (points: Point[], name: string) => points.find((p) => p.name === name)!;

/** Ray casting on the stored (float4) coordinates, as the server compares them. */
function inside(polygon: number[][], x: number, y: number): boolean {
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) odd = !odd;
  }
  return odd;
}

/** A concave lasso (an L) around the first point, reaching into the map so it holds some points and not others. */
function lassoAround(p: Point): number[][] {
  const [x, y, r] = [p.x, p.y, 0.35];
  return [
    [x - 0.013, y - 0.011],
    [x + r, y - 0.011],
    [x + r, y + 0.09],
    [x + 0.05, y + 0.09],
    [x + 0.05, y + r],
    [x - 0.013, y + r],
  ];
}

async function selection(body: unknown) {
  return server.api(owner.token, 'POST', url('/map/selection'), body);
}

async function explored(vql: unknown): Promise<string[]> {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=1000&vql=${encodeURIComponent(typeof vql === 'string' ? vql : JSON.stringify(vql))}`);
  expect(res.status, res.text).toBe(200);
  return res.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort();
}

describe('embedding map', { shuffle: false }, () => {
  let before: Point[];

  it('places every indexed media, near-duplicates closer than unrelated photos, in pages and rectangles', async () => {
    const first = await server.api(owner.token, 'GET', url('/map?limit=4&threshold=4'));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ total: 10, threshold: 4, next_cursor: first.body.points.media_id[3] });
    expect(first.body.points.media_id).toHaveLength(4);
    expect(first.body.bounds).toEqual({ min_x: 0, min_y: 0, max_x: expect.any(Number), max_y: expect.any(Number) });
    expect(Math.max(first.body.bounds.max_x, first.body.bounds.max_y)).toBeCloseTo(1, 5);

    before = await allPoints(datasetId, '', 3);
    expect(before.map((p) => p.name).sort()).toEqual([...ORIGINALS, ...Object.keys(EDITS)].sort());
    expect(before.map((p) => p.id)).toEqual(before.map((p) => p.id).sort());
    // UMAP keeps neighbourhoods, not the distances between unrelated groups: each edit sits by its photo, far closer than a typical unrelated pair.
    const unrelated = before.flatMap((a) => before.filter((b) => a.name < b.name && EDITS[a.name] !== b.name && EDITS[b.name] !== a.name).map((b) => distance(a, b))).sort((a, b) => a - b);
    const median = unrelated[Math.floor(unrelated.length / 2)]!;
    for (const [edit, original] of Object.entries(EDITS)) {
      const twin = distance(byName(before, edit), byName(before, original));
      expect(twin, `${edit} to ${original}`).toBeLessThan(median / 4);
    }

    const dog = byName(before, 'dog.jpg');
    const rect = { min_x: dog.x - 0.2, min_y: dog.y - 0.2, max_x: dog.x + 0.2, max_y: dog.y + 0.2 };
    const inRect = await allPoints(datasetId, Object.entries(rect).map(([k, v]) => `&${k}=${v}`).join(''));
    const expected = before.filter((p) => p.x >= rect.min_x && p.x <= rect.max_x && p.y >= rect.min_y && p.y <= rect.max_y);
    expect(inRect.map((p) => p.name).sort()).toEqual(expected.map((p) => p.name).sort());
    expect(inRect.length).toBeLessThan(before.length);
  });

  it('a lasso selects exactly the points inside it, in pages, and as a rectangle too', async () => {
    const lasso = lassoAround(byName(before, 'dog.jpg'));
    const expected = before.filter((p) => inside(lasso, p.x, p.y)).map((p) => p.id).sort();
    expect(expected.length).toBeGreaterThan(0);
    const res = await selection({ polygon: lasso });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ count: expected.length, media_ids: expected, next_cursor: null, vql: JSON.stringify([{ map: { op: 'within', value: lasso } }]) });

    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await selection({ polygon: lasso, limit: 1, ...(cursor ? { cursor } : {}) });
      expect(page.body.count).toBe(expected.length);
      paged.push(...page.body.media_ids);
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(expected);

    const whole = await selection({ rect: { min_x: -1, min_y: -1, max_x: 2, max_y: 2 } });
    expect(whole.body.count).toBe(10);
  });

  it('feeds Explore and tag-by-query through the VQL map clause', async () => {
    const lasso = lassoAround(byName(before, 'dog.jpg'));
    const expected = before.filter((p) => inside(lasso, p.x, p.y)).map((p) => p.name).sort();
    const { vql } = (await selection({ polygon: lasso })).body;
    expect(await explored(vql)).toEqual(expected);
    expect(await explored([{ map: { op: 'within', value: lasso } }, { tags: { op: 'is', value: ['lassoed'] } }])).toEqual([]);

    const tagged = await server.api(owner.token, 'POST', url('/media/tags'), { tags: ['lassoed'], query: { vql } });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body).toEqual({ matched: expected.length, changed: expected.length });
    expect(await explored([{ tags: { op: 'is', value: ['lassoed'] } }])).toEqual(expected);
    // The edit copied rows on write: their places came with them.
    expect((await allPoints()).sort((a, b) => a.id.localeCompare(b.id))).toEqual(before);
  });

  it('refuses bad shapes and parameters with a 422, a dataset without a map with a 409, a stranger with a 404', async () => {
    const refusals: Array<[unknown, string]> = [
      [{ polygon: [[0, 0], [1, 1]] }, 'body/polygon must NOT have fewer than 3 items'],
      [{ polygon: Array.from({ length: 1001 }, (_, i) => [Math.cos(i), Math.sin(i)]) }, 'body/polygon must NOT have more than 1000 items'],
      [{ polygon: [[0, 0], [1, 'a'], [1, 1]] }, 'body/polygon/1/1 must be number'],
      [{}, 'Give exactly one of polygon and rect'],
      [{ polygon: [[0, 0], [1, 0], [1, 1]], rect: { min_x: 0, min_y: 0, max_x: 1, max_y: 1 } }, 'Give exactly one of polygon and rect'],
      [{ rect: { min_x: 1, min_y: 0, max_x: 0, max_y: 1 } }, "The rect's min_x and min_y must not be greater than its max_x and max_y"],
    ];
    for (const [body, detail] of refusals) {
      const res = await selection(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ detail });
    }
    // JSON has no Infinity: a number too large for a double parses as one.
    const infinite = await fetch(`${server.url}${url('/map/selection')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: '{"polygon": [[0, 0], [1e999, 0], [1, 1]]}',
    });
    expect(infinite.status).toBe(422);
    expect(((await infinite.json()) as { detail: string }).detail).toBe('body/polygon/1/0 must be <= 1000000000');

    const vql = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?vql=${encodeURIComponent(JSON.stringify([{ map: { op: 'within', value: [[0, 0], [1, 1]] } }]))}`);
    expect(vql.status).toBe(422);
    expect(vql.body).toEqual({ detail: 'vql[0].map.value must have at least 3 points, got 2' });
    const half = await server.api(owner.token, 'GET', url('/map?min_x=0&max_x=1'));
    expect(half.status).toBe(422);
    expect(half.body).toEqual({ detail: 'A rectangle needs all four of min_x, min_y, max_x and max_y' });

    const empty = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=empty')).body.dataset_id;
    for (const res of [await server.api(owner.token, 'GET', url('/map', empty)), await server.api(owner.token, 'POST', url('/map/selection', empty), { rect: { min_x: 0, min_y: 0, max_x: 1, max_y: 1 } })]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: `Dataset ${empty} has no embedding map: a map is made when the dataset is indexed; reindex it if it was indexed before maps existed` });
    }
    const stranger = await server.createUser();
    const hidden = await server.api(stranger.token, 'GET', url('/map'));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'Dataset not found' });
    expect((await allPoints()).length).toBe(10);
  });

  it('survives a snapshot and a clone', async () => {
    const snapshot = await server.api(owner.token, 'POST', url('/snapshot'), { name: 'mapped' });
    expect(snapshot.status, snapshot.text).toBe(200);
    const datasets = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.map((d: { id: string }) => d.id);
    const res = await server.api(owner.token, 'POST', url(`/snapshot/${snapshot.body.snapshot_id}/clone`));
    expect(res.status, res.text).toBe(202);
    const clone = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.find((d: { id: string }) => !datasets.includes(d.id));
    await waitForDataset(server, owner, clone.id, ['READY']);
    const cloned = await allPoints(clone.id);
    expect(cloned.map(({ id, name, x, y }) => ({ id, name, x, y }))).toEqual(before.map(({ id, name, x, y }) => ({ id, name, x, y })));
  });

  it('places media added without a reindex by their neighbours', async () => {
    const body = form([{ name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(photo('dog.jpg').bytes) }]);
    const res = await server.api(owner.token, 'POST', url('/add_media'), body);
    expect(res.status, res.text).toBe(202);
    await waitFor(async () => ((await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&task_type=MEDIA_ADDITION`)).body.tasks[0]?.status === 'COMPLETED' ? true : undefined), 60_000, 'media added');
    await waitForDataset(server, owner, datasetId, ['PARTIAL INDEX']);
    const after = await allPoints();
    expect(after).toHaveLength(11);
    const added = byName(after, 'dog-half.jpg');
    const others = after.filter((p) => !['dog-half.jpg', 'dog.jpg', 'dog-crop.jpg'].includes(p.name)).map((p) => distance(added, p));
    expect(distance(added, byName(after, 'dog.jpg'))).toBeLessThan(Math.min(...others));
    expect(after.filter((p) => p.name !== 'dog-half.jpg').sort((a, b) => a.id.localeCompare(b.id))).toEqual(before);
    const map = (await server.api(owner.token, 'GET', url('/map?limit=1'))).body;
    expect(map.total).toBe(11);
    expect(added.x).toBeGreaterThanOrEqual(map.bounds.min_x);
    expect(added.x).toBeLessThanOrEqual(map.bounds.max_x);
  });
});
