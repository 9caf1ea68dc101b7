import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let editor: TestUser;
let stranger: TestUser;
let datasetId: string;

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, editor, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  const created = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=Street%20scenes');
  expect(created.status).toBe(200);
  datasetId = created.body.dataset_id;
  // The visibility tests read these grants; the sharing tests make their own on datasets of their own.
  await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: viewer.email });
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
});
afterAll(() => server?.close());

/** An empty dataset of the owner's, for a test that changes who may see it. */
const ownDataset = async (name = 'shared') => (await server.api(owner.token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=${name}`)).body.dataset_id as string;
/** The grants the sharing tests make, in their order: the viewer by default, then the editor as editor. */
const shareWithBoth = async (id: string) => {
  await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/share`, { user_email: viewer.email });
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
};

describe('GET /api/v1/ingestion/new_dataset', () => {
  it('creates an empty dataset owned by the caller', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: datasetId,
      display_name: 'Street scenes',
      description: '',
      status_new: 'INDEXING',
      status: 'INDEXING',
      progress: 0,
      n_images: 0,
      n_videos: 0,
      n_objects: 0,
      fatal_error_msg: null,
      source_dataset_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      created_by: owner.email,
    });
  });

  it('400 when dataset_name is missing or blank', async () => {
    expect(await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset')).toMatchObject({
      status: 400,
      body: { detail: 'Missing required parameter: dataset_name' },
    });
    expect((await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=%20')).status).toBe(400);
  });

  it('401 without a token', async () => {
    expect((await server.api(null, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=x')).status).toBe(401);
  });
});

describe('sharing', () => {
  it('shares by form field user_email (multipart), viewer by default', async () => {
    const datasetId = await ownDataset();
    const form = new FormData();
    form.set('user_email', viewer.email);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, form);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user_id: viewer.user_id, email: viewer.email, role: 'viewer', granted_at: expect.any(String) });
  });

  it('shares by urlencoded form with a role', async () => {
    const datasetId = await ownDataset();
    const temp = await server.createUser();
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, new URLSearchParams({ user_email: temp.email, role: 'editor' }));
    expect(res).toMatchObject({ status: 200, body: { role: 'editor' } });
    expect((await server.api(owner.token, 'DELETE', `/api/v1/manage/${datasetId}/share?user_email=${encodeURIComponent(temp.email)}`)).status).toBe(204);
  });

  it('invites by JSON grant_to_user_email with a role', async () => {
    const datasetId = await ownDataset();
    const res = await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
    expect(res).toMatchObject({ status: 200, body: { user_id: editor.user_id, role: 'editor' } });
  });

  it('lists who has access, the owner first', async () => {
    const datasetId = await ownDataset();
    await shareWithBoth(datasetId);
    const res = await server.api(viewer.token, 'GET', `/api/v1/manage/${datasetId}/share`);
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      [owner.email, 'owner'],
      [viewer.email, 'viewer'],
      [editor.email, 'editor'],
    ]);
  });

  it('404 for an unknown user, and nothing stored changes', async () => {
    const datasetId = await ownDataset();
    await shareWithBoth(datasetId);
    const res = await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: 'nobody@example.com' });
    expect(res).toMatchObject({ status: 404, body: { detail: 'User not found: nobody@example.com' } });
    expect((await server.api(owner.token, 'GET', `/api/v1/manage/${datasetId}/share`)).body.users).toHaveLength(3);
  });

  it('422 for an unknown role, 400 for a missing e-mail or the owner', async () => {
    expect((await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email, role: 'admin' })).status).toBe(422);
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, new URLSearchParams({ user_email: viewer.email, role: 'admin' }))).status).toBe(422);
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, new URLSearchParams({})))).toMatchObject({
      status: 400,
      body: { detail: 'Missing required parameter: user_email' },
    });
    expect((await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: owner.email })).status).toBe(400);
  });
});

describe('404 when the caller cannot see the dataset, 403 when they cannot change it', () => {
  it('shows the dataset to those it is shared with, in their inventory', async () => {
    expect((await server.api(viewer.token, 'GET', `/api/v1/dataset/${datasetId}`)).status).toBe(200);
    const list = await server.api(viewer.token, 'GET', '/api/v1/datasets');
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toContain(datasetId);
    expect((await server.api(stranger.token, 'GET', '/api/v1/datasets')).body).toEqual([]);
  });

  it('404 on every route for a stranger, the same as for a dataset that does not exist', async () => {
    for (const id of [datasetId, randomUUID()]) {
      expect(await server.api(stranger.token, 'GET', `/api/v1/dataset/${id}`)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
      expect((await server.api(stranger.token, 'GET', `/api/v1/manage/${id}/share`)).status).toBe(404);
      expect((await server.api(stranger.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: stranger.email })).status).toBe(404);
      expect((await server.api(stranger.token, 'POST', `/api/v1/dataset/${id}/share`, new URLSearchParams({ user_email: stranger.email }))).status).toBe(404);
      expect((await server.api(stranger.token, 'DELETE', `/api/v1/manage/${id}/share?user_email=${encodeURIComponent(viewer.email)}`)).status).toBe(404);
    }
  });

  it('403 when a viewer or an editor tries to manage access', async () => {
    for (const user of [viewer, editor]) {
      const res = await server.api(user.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: stranger.email });
      expect(res).toMatchObject({ status: 403, body: { detail: 'You do not have permission to manage access to this dataset' } });
    }
    expect((await server.api(stranger.token, 'GET', `/api/v1/dataset/${datasetId}`)).status).toBe(404);
  });

  it('422 for a dataset id that is not a UUID', async () => {
    expect((await server.api(owner.token, 'GET', '/api/v1/dataset/not-a-uuid')).status).toBe(422);
  });

  it('revoking removes access: the dataset becomes invisible (404)', async () => {
    const temp = await server.createUser();
    await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: temp.email });
    expect((await server.api(temp.token, 'GET', `/api/v1/dataset/${datasetId}`)).status).toBe(200);
    expect((await server.api(owner.token, 'DELETE', `/api/v1/manage/${datasetId}/share?user_email=${encodeURIComponent(temp.email)}`)).status).toBe(204);
    expect((await server.api(temp.token, 'GET', `/api/v1/dataset/${datasetId}`)).status).toBe(404);
    expect((await server.api(owner.token, 'DELETE', `/api/v1/manage/${datasetId}/share?user_email=${encodeURIComponent(temp.email)}`)).status).toBe(404);
  });
});
