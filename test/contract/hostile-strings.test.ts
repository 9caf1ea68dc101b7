import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { createDataset, photo } from '../support/ingest.js';
import { type ApiResponse, type TestServer, type TestUser, startTestServer, uniqueEmail } from '../support/server.js';

let server: TestServer;
let owner: TestUser;
let friend: TestUser;
/** A READY dataset of one photo, tagged 'kept' and labelled 'dog': every refused edit below must leave it so. */
let datasetId: string;
let mediaId: string;

const refused = (field: string) => ({ status: 400, body: { detail: `Field '${field}' contains a NUL byte` } });
const answer = (res: ApiResponse) => ({ status: res.status, body: res.body as unknown });
const get = async (route: string, token: string | null = owner.token) => answer(await server.api(token, 'GET', route));
const send = async (method: string, route: string, body: unknown, token: string | null = owner.token) => answer(await server.api(token, method, route, body));

/** What a refused request must not have changed: the dataset, its annotations, who it is shared with, the dataset list. */
async function stored() {
  const dataset = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).body;
  return {
    name: dataset.display_name,
    description: dataset.description,
    tags: (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/tags`)).body,
    labels: (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/labels`)).body,
    shares: (await server.api(owner.token, 'GET', `/api/v1/manage/${datasetId}/share`)).body,
    datasets: (await server.api(owner.token, 'GET', '/api/v1/datasets')).body,
  };
}

/** Runs `attempts`, then checks the server still answers and nothing stored changed. */
async function unchanged(attempts: () => Promise<void>) {
  const before = await stored();
  await attempts();
  expect((await server.api(owner.token, 'GET', '/api/v1/auth/me')).status).toBe(200);
  expect(await stored()).toEqual(before);
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, friend] = await Promise.all([server.createUser(), server.createUser()]);
  ({ datasetId } = await createDataset(server, owner, 'hostile', [[photo('dog.jpg')]]));
  mediaId = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media[0].media_id;
  expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: ['kept'], media_ids: [mediaId] })).status).toBe(200);
  expect((await server.api(owner.token, 'PUT', `/api/v1/dataset/${datasetId}/media/label`, { label: 'dog', media_ids: [mediaId] })).status).toBe(200);
}, 120_000);
afterAll(() => server?.close());

describe('a NUL byte in a string the client sends', () => {
  it('is a 400 naming the query parameter on new_dataset, and no dataset is made', async () => {
    await unchanged(async () => {
      expect(await get('/api/v1/ingestion/new_dataset?dataset_name=a%00b')).toEqual(refused('dataset_name'));
    });
  });

  it('is a 400 naming the filter on the task list and its filter options', async () => {
    await unchanged(async () => {
      expect(await get('/api/v1/tasks?dataset_name=a%00b')).toEqual(refused('dataset_name'));
      expect(await get('/api/v1/tasks?created_by=a%00b%40example.com')).toEqual(refused('created_by'));
      expect(await get('/api/v1/tasks?task_type=DATASET_CREATION&task_type=a%00b')).toEqual(refused('task_type[1]'));
      expect(await get('/api/v1/tasks/filters?start_time_from=2026-01-01%00')).toEqual(refused('start_time_from'));
    });
  });

  it('is a 400 naming the filter on Explore, also inside VQL text, raw or written as \\u0000', async () => {
    const explore = (query: string) => get(`/api/v1/explore/${datasetId}?${query}`);
    await unchanged(async () => {
      expect(await explore('file_name=a%00b')).toEqual(refused('file_name'));
      expect(await explore('tags=a%00b')).toEqual(refused('tags'));
      expect(await explore('labels=dog,a%00b')).toEqual(refused('labels'));
      expect(await explore('caption=a%00b')).toEqual(refused('caption'));
      expect(await explore(`vql=${encodeURIComponent('[{"text":{"op":"fts","value":"a\0b"}}]')}`)).toEqual(refused('vql'));
      const escaped = `vql=${encodeURIComponent('[{"tags":{"op":"is","value":["kept"]}},{"text":{"op":"fts","value":"a\\u0000b"}}]')}`;
      expect(await explore(escaped)).toEqual(refused('vql[1].text.value'));
      expect(await explore(`vql=${encodeURIComponent('[{"labels":{"op":"one_of","value":["dog","a\\u0000b"]}}]')}`)).toEqual(refused('vql[0].labels.value[1]'));
    });
    expect((await explore('tags=kept')).status).toBe(200);
  });

  it('is a 400 naming the field on PATCH dataset, and the name and description stay', async () => {
    await unchanged(async () => {
      expect(await send('PATCH', `/api/v1/dataset/${datasetId}`, { display_name: 'a\0b' })).toEqual(refused('display_name'));
      expect(await send('PATCH', `/api/v1/dataset/${datasetId}`, { display_name: 'fine', description: 'x\0' })).toEqual(refused('description'));
      expect(await send('PATCH', `/api/v1/dataset/${datasetId}`, { 'display\0name': 'fine' })).toEqual(refused('display\\0name'));
    });
  });

  it('is a 400 naming the field on tag and label edits, and the annotations stay', async () => {
    const route = (p: string) => `/api/v1/dataset/${datasetId}${p}`;
    await unchanged(async () => {
      expect(await send('POST', route('/media/tags'), { tags: ['fine', 'a\0b'], media_ids: [mediaId] })).toEqual(refused('tags[1]'));
      expect(await send('POST', route('/media/tags/remove'), { tags: ['kept\0'], media_ids: [mediaId] })).toEqual(refused('tags[0]'));
      expect(await send('PUT', route('/media/label'), { label: 'a\0b', media_ids: [mediaId] })).toEqual(refused('label'));
      expect(await send('PUT', route('/media/label'), { label: 'cat', media_ids: [`${mediaId}\0`] })).toEqual(refused('media_ids[0]'));
    });
  });

  it('is a 400 naming the e-mail field when sharing, as JSON, a urlencoded or a multipart form, and no one gains access', async () => {
    await unchanged(async () => {
      const evil = `${friend.email}\0`;
      expect(await send('POST', `/api/v1/dataset/${datasetId}/share`, { user_email: evil })).toEqual(refused('user_email'));
      expect(answer(await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, new URLSearchParams({ user_email: evil, role: 'editor' })))).toEqual(
        refused('user_email'),
      );
      const multipart = new FormData();
      multipart.append('user_email', evil);
      expect(answer(await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, multipart))).toEqual(refused('user_email'));
      expect(await send('PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: evil, role: 'viewer' })).toEqual(refused('grant_to_user_email'));
      expect(answer(await server.api(owner.token, 'DELETE', `/api/v1/manage/${datasetId}/share?user_email=${encodeURIComponent(evil)}`))).toEqual(refused('user_email'));
    });
  });

  it('is a 400 naming the path parameter', async () => {
    await unchanged(async () => {
      expect(await get(`/api/v1/dataset/${datasetId}%00`)).toEqual(refused('dataset_id'));
    });
  });

  it('is a 400 on the unauthenticated sign-in, and no session is started', async () => {
    await unchanged(async () => {
      const res = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: `${owner.api_key}\0`, api_secret: owner.api_secret });
      expect(answer(res)).toEqual(refused('api_key'));
      expect(res.headers.get('set-cookie')).toBeNull();
      const form = new URLSearchParams({ api_key: owner.api_key, api_secret: `\0${owner.api_secret}` });
      expect(answer(await server.api(null, 'POST', '/api/v1/auth/session', form))).toEqual(refused('api_secret'));
    });
  });

  it('is a 401 in a Bearer token or a session cookie, never a 500', async () => {
    await unchanged(async () => {
      const token = await signClientToken(`${owner.api_key}\0`, owner.api_secret, 600);
      expect(await get('/api/v1/auth/me', token)).toEqual({ status: 401, body: { detail: 'Invalid token: kid contains a NUL byte' } });
      const cookie = answer(await server.api(null, 'GET', '/api/v1/auth/me', undefined, { cookie: 'loupe_session=a%00b' }));
      expect(cookie).toEqual({ status: 401, body: { detail: 'Invalid token: session expired or unknown' } });
      expect(await get('/api/v1/auth/me', await signClientToken(uniqueEmail(), 'x', 600))).toEqual({ status: 401, body: { detail: 'Invalid token: unknown or revoked api_key' } });
    });
  });
});
