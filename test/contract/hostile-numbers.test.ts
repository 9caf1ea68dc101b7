import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

/**
 * Issue 28 item 3: huge, infinite and non-numbers in numeric parameters are a 422 naming the field, never a 500.
 * AJV coerced '1e999' and 'Infinity' to Infinity and then skipped minimum/maximum for it, so they reached SQL.
 */
let server: TestServer;
let owner: TestUser;
let datasetId: string;

const MAX_INT = 2_147_483_647;
/** Above any bound: each answers the field's maximum. */
const HUGE = ['99999999999999999999999', '1e999', 'Infinity', '1e308'];
/** Below any bound: each answers the field's minimum. */
const NEGATIVE = ['-1', '-Infinity', '-1e999'];

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  ({ datasetId } = await createDataset(server, owner, 'kept', [[photo('dog.jpg'), photo('person.jpg')]]));
}, 120_000);
afterAll(() => server?.close());

const get = (route: string) => server.api(owner.token, 'GET', route);

/** Every hostile value of `name` on the route, with the exact 422 each must give. */
async function expectBounded(route: string, name: string, min: number, max: number, where = 'querystring') {
  const sep = route.includes('?') ? '&' : '?';
  const cases: Array<[string, string]> = [
    ...HUGE.map((v): [string, string] => [v, `${where}/${name} must be <= ${max}`]),
    ...NEGATIVE.map((v): [string, string] => [v, `${where}/${name} must be >= ${min}`]),
    ['NaN', `${where}/${name} must be integer`],
  ];
  for (const [value, detail] of cases) {
    const res = await get(`${route}${sep}${name}=${encodeURIComponent(value)}`);
    expect({ value, status: res.status, body: res.body }, `${name}=${value}`).toEqual({ value, status: 422, body: { detail } });
  }
}

/** The server answers, and still has the dataset and its media: nothing crashed, nothing stored was lost. */
async function expectStillUp() {
  const list = await get('/api/v1/datasets');
  expect(list.status).toBe(200);
  expect(list.body.map((d: { id: string }) => d.id)).toContain(datasetId);
  const media = await get(`/api/v1/dataset/${datasetId}/media`);
  expect({ status: media.status, total: media.body.total }).toEqual({ status: 200, total: 2 });
}

async function rawJson(method: string, route: string, json: string) {
  const res = await fetch(`${server.url}${route}`, { method, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: json });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('out-of-range numbers in list parameters are a 422 naming the field', () => {
  it('GET /datasets: limit and offset', async () => {
    await expectBounded('/api/v1/datasets', 'limit', 1, 1000);
    await expectBounded('/api/v1/datasets', 'offset', 0, MAX_INT);
    expect((await get(`/api/v1/datasets?offset=${MAX_INT}`)).body).toEqual([]);
    await expectStillUp();
  });

  it('GET /dataset/{id}/media: limit and offset', async () => {
    await expectBounded(`/api/v1/dataset/${datasetId}/media`, 'limit', 1, 500);
    await expectBounded(`/api/v1/dataset/${datasetId}/media`, 'offset', 0, MAX_INT);
    expect((await get(`/api/v1/dataset/${datasetId}/media?offset=${MAX_INT}`)).body).toEqual({ media: [], total: 2 });
    await expectStillUp();
  });

  it('GET /tasks: page and page_size (the spec: page 1-based, page_size 5 to 50)', async () => {
    // The last page whose offset, (page - 1) × 50, still fits int4.
    await expectBounded('/api/v1/tasks', 'page', 1, 42_949_673);
    await expectBounded('/api/v1/tasks', 'page_size', 5, 50);
    const last = await get('/api/v1/tasks?page=42949673&page_size=50');
    expect({ status: last.status, tasks: last.body.tasks, page: last.body.page }).toEqual({ status: 200, tasks: [], page: 42_949_673 });
    await expectStillUp();
  });

  it('GET /notifications: limit and offset', async () => {
    await expectBounded('/api/v1/notifications', 'limit', 1, 100);
    await expectBounded('/api/v1/notifications', 'offset', 0, MAX_INT);
    await expectStillUp();
  });
});

describe('Explore', () => {
  it('threshold, page_number and previews_limit; threshold=1e999 never reaches a cluster column', async () => {
    const route = `/api/v1/explore/${datasetId}`;
    await expectBounded(route, 'threshold', 0, 4);
    await expectBounded(route, 'page_number', 0, 21_474_836);
    await expectBounded(route, 'previews_limit', 1, 1000);
    await expectBounded(`${route}?entity_type=OBJECTS`, 'threshold', 0, 4);
    const coarsest = await get(`${route}?threshold=4`);
    expect({ status: coarsest.status, threshold: coarsest.body.threshold }).toEqual({ status: 200, threshold: 4 });
    await expectStillUp();
  });

  it('min_uniqueness, max_uniqueness and textual_similarity_threshold (parsed by hand) are numbers in [0, 1]', async () => {
    for (const name of ['min_uniqueness', 'max_uniqueness', 'textual_similarity_threshold']) {
      const cases: Array<[string, string]> = [
        ...['99999999999999999999999', '1e999', '1e308', '-1', '-1e999'].map((v): [string, string] => [v, `${name} must be in [0, 1]`]),
        ...['Infinity', '-Infinity', 'NaN'].map((v): [string, string] => [v, `${name} must be a number`]),
      ];
      for (const [value, detail] of cases) {
        const res = await get(`/api/v1/explore/${datasetId}?caption=dog&${name}=${encodeURIComponent(value)}`);
        expect({ value, status: res.status, body: res.body }, `${name}=${value}`).toEqual({ value, status: 422, body: { detail } });
      }
    }
    await expectStillUp();
  });

  it('a vql threshold or value of 1e999 in JSON (Infinity once parsed) is a 422 naming it', async () => {
    const cases: Array<[string, string]> = [
      ['[{"uniqueness": {"op": "uniqueness", "value": 1e999}}]', 'vql[0].uniqueness.value must be a number'],
      ['[{"duplicates": {"op": "duplicates", "value": 1e308}}]', 'vql[0].duplicates.value must be in (0, 1]'],
      ['[{"text": {"op": "semantic", "value": "dog", "threshold": -1e999}}]', 'vql[0].text.threshold must be a number'],
      ['[{"custom": {"field": "score", "op": "gt", "value": 1e999}}]', 'vql[0].custom.value must be a number or an ISO 8601 datetime'],
    ];
    for (const [vql, detail] of cases) {
      const res = await get(`/api/v1/explore/${datasetId}?vql=${encodeURIComponent(vql)}`);
      expect({ vql, status: res.status, body: res.body }).toEqual({ vql, status: 422, body: { detail } });
    }
    await expectStillUp();
  });
});

describe('views, labels and links', () => {
  it('POST /views: the saved Explore threshold; PATCH: a JSON threshold of 1e999', async () => {
    const base = `/api/v1/dataset/${datasetId}/views`;
    for (const value of HUGE) {
      const res = await server.api(owner.token, 'POST', `${base}?threshold=${encodeURIComponent(value)}`, { name: 'huge' });
      expect({ value, status: res.status, body: res.body }).toEqual({ value, status: 422, body: { detail: 'querystring/threshold must be <= 4' } });
    }
    const saved = await server.api(owner.token, 'POST', `${base}?threshold=1`, { name: 'kept view' });
    expect(saved.status).toBe(200);
    const patched = await rawJson('PATCH', `${base}/${saved.body.id}`, '{"filters": {"threshold": 1e999}}');
    expect(patched).toEqual({ status: 422, body: { detail: 'body/filters/threshold must be <= 4' } });
    expect((await get(`${base}/${saved.body.id}`)).body.filters.threshold).toBe(1);
    await expectStillUp();
  });

  it('POST /labels/propagate: a JSON threshold of 1e999 or -1e999', async () => {
    const route = `/api/v1/dataset/${datasetId}/labels/propagate`;
    expect(await rawJson('POST', route, '{"threshold": 1e999, "dry_run": true}')).toEqual({ status: 422, body: { detail: 'body/threshold must be <= 4' } });
    expect(await rawJson('POST', route, '{"threshold": -1e999, "dry_run": true}')).toEqual({ status: 422, body: { detail: 'body/threshold must be >= 0' } });
    await expectStillUp();
  });

  it('an upload transaction id past int4 and a signed link expiring at 1e999', async () => {
    for (const value of HUGE) {
      const res = await server.api(owner.token, 'POST', `/api/v1/ingestion/${datasetId}/process_files/${encodeURIComponent(value)}`);
      expect({ value, status: res.status, body: res.body }).toEqual({ value, status: 422, body: { detail: `params/trans_id must be <= ${MAX_INT}` } });
    }
    const [media] = (await get(`/api/v1/dataset/${datasetId}/media`)).body.media;
    for (const value of HUGE) {
      const link = await server.api(null, 'GET', `/api/v1/dataset/${datasetId}/media/${media.media_id}/original?expires=${encodeURIComponent(value)}&signature=x`);
      expect({ value, status: link.status, body: link.body }).toEqual({ value, status: 422, body: { detail: 'querystring/expires must be <= 9999999999' } });
      const download = await server.api(null, 'GET', `/api/v1/exports/${datasetId}/download?expires=${encodeURIComponent(value)}&signature=x`);
      expect({ value, status: download.status, body: download.body }).toEqual({ value, status: 422, body: { detail: 'querystring/expires must be <= 9999999999' } });
    }
    await expectStillUp();
  });
});
