import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, photo } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;
let otherDatasetId: string;

const base = (id = datasetId) => `/api/v1/dataset/${id}/views`;
const nameForm = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
};
const fileNames = (res: { body: any }) =>
  res.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort();

beforeAll(async () => {
  server = await startTestServer();
  [owner, editor, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser(), server.createUser()]);
  ({ datasetId } = await createDataset(server, owner, 'views', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]));
  ({ datasetId: otherDatasetId } = await createDataset(server, owner, 'other', [[photo('kite.jpg')]]));
  await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
  await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: editor.email, role: 'editor' });
}, 180_000);
afterAll(() => server?.close());

/** Saves the "Dogs" view (file_name=dog, threshold 1) on the dataset and answers the response. */
const saveDogs = (id = datasetId) => server.api(owner.token, 'POST', `${base(id)}?file_name=dog&threshold=1`, nameForm({ name: 'Dogs' }));

/** The four views the create tests save, in their order, on a dataset of its own (the tests that count views need one); answers the dataset and "Dogs". */
async function datasetWithFourViews() {
  const { datasetId: id } = await createDataset(server, owner, 'views', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: viewer.email });
  await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/share`, { user_email: editor.email, role: 'editor' });
  const dogView = (await saveDogs(id)).body;
  await server.api(owner.token, 'POST', `${base(id)}?issue_type=outliers`, new URLSearchParams({ name: 'Outliers', alerting_enabled: 'false' }));
  await server.api(owner.token, 'POST', base(id), { name: ' Everything ', monitoring_enabled: true, alerting_enabled: true, notify_emails: [editor.email, viewer.email.toUpperCase()] });
  await server.api(owner.token, 'POST', base(id), nameForm({ name: 'Multi', alerting_enabled: 'false', notify_emails: `${editor.email}, ${viewer.email}` }));
  return { id, dogView };
}

describe('saved views: create, read, change, delete', () => {
  it('saves a view from a form field `name` and Explore filters as query parameters, monitored and alerting by default', async () => {
    const res = await saveDogs();
    expect(res.status).toBe(200);
    const dogView = res.body;
    expect(dogView).toEqual({
      id: expect.any(String),
      dataset_id: datasetId,
      name: 'Dogs',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      created_by: { user_id: owner.user_id, email: owner.email },
      filters: { threshold: 1, entity_type: 'IMAGES', file_name: 'dog' },
      stats: { n_images: 1, n_video_frames: 0, n_videos: 0, n_clusters: 1 },
      total_results: 1,
      monitoring_enabled: true,
      alerting_enabled: true,
      notify_emails: [],
    });
  });

  it('takes urlencoded and JSON bodies too, with the monitoring and alerting switches and users to alert', async () => {
    const form = await server.api(owner.token, 'POST', `${base()}?issue_type=outliers`, new URLSearchParams({ name: 'Outliers', alerting_enabled: 'false' }));
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ name: 'Outliers', monitoring_enabled: true, alerting_enabled: false, filters: { issue_type: 'outliers' } });
    const json = await server.api(owner.token, 'POST', base(), { name: ' Everything ', monitoring_enabled: true, alerting_enabled: true, notify_emails: [editor.email, viewer.email.toUpperCase()] });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ name: 'Everything', total_results: 3, monitoring_enabled: true, alerting_enabled: true });
    expect(json.body.notify_emails).toEqual([editor.email, viewer.email].sort());
    const multipart = await server.api(owner.token, 'POST', base(), nameForm({ name: 'Multi', alerting_enabled: 'false', notify_emails: `${editor.email}, ${viewer.email}` }));
    expect(multipart.status).toBe(200);
    expect(multipart.body.notify_emails).toEqual([editor.email, viewer.email].sort());
  });

  it('lists the views oldest first as {views: [...]}, each with what it matches now; gets one', async () => {
    const { id, dogView } = await datasetWithFourViews();
    const list = await server.api(viewer.token, 'GET', base(id));
    expect(list.status).toBe(200);
    expect(list.body.views.map((v: { name: string }) => v.name)).toEqual(['Dogs', 'Outliers', 'Everything', 'Multi']);
    expect(list.body.views[0]).toEqual(dogView);
    const one = await server.api(viewer.token, 'GET', `${base(id)}/${dogView.id}`);
    expect(one).toMatchObject({ status: 200, body: dogView });
  });

  it('answers 422 with a detail for a bad name, bad filters, an uploaded anchor or users without access', async () => {
    const { id, dogView } = await datasetWithFourViews();
    const cases: Array<[string, unknown]> = [
      [base(id), nameForm({})],
      [base(id), nameForm({ name: '   ' })],
      [base(id), { name: 'x'.repeat(201) }],
      [base(id), { name: 'x', unknown: true }],
      [base(id), nameForm({ name: 'x', colour: 'red' })],
      [base(id), nameForm({ name: 'x', monitoring_enabled: 'maybe' })],
      [`${base(id)}?issue_type=nope`, nameForm({ name: 'x' })],
      [`${base(id)}?vql=not-json`, nameForm({ name: 'x' })],
      [`${base(id)}?threshold=9`, nameForm({ name: 'x' })],
      [`${base(id)}?min_uniqueness=2`, nameForm({ name: 'x' })],
      [`${base(id)}?anchor_type=MEDIA`, nameForm({ name: 'x' })],
      [`${base(id)}?anchor_type=UPLOAD&anchor_media_id=${dogView.id}`, nameForm({ name: 'x' })],
      [base(id), { name: 'x', notify_emails: [stranger.email] }],
      [base(id), { name: 'x', notify_emails: ['nobody@example.com'] }],
    ];
    for (const [route, body] of cases) {
      const res = await server.api(owner.token, 'POST', route, body);
      expect(res.status, `${route} ${JSON.stringify(body instanceof FormData ? [...body.entries()] : body)}`).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    for (const body of [{}, { name: '' }, { other: 1 }, { filters: { bogus: 1 } }, { filters: { threshold: 7 } }, { monitoring_enabled: 'perhaps' }, { notify_emails: [stranger.email] }]) {
      const res = await server.api(owner.token, 'PATCH', `${base(id)}/${dogView.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await server.api(owner.token, 'GET', base(id))).body.views).toHaveLength(4);
  });

  it('renames, switches, replaces filters and recipients with PATCH', async () => {
    const dogView = (await saveDogs()).body;
    const res = await server.api(owner.token, 'PATCH', `${base()}/${dogView.id}`, {
      name: 'People',
      monitoring_enabled: true,
      alerting_enabled: true,
      filters: { file_name: 'person', threshold: 2 },
      notify_emails: [viewer.email],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: dogView.id,
      name: 'People',
      monitoring_enabled: true,
      alerting_enabled: true,
      filters: { threshold: 2, entity_type: 'IMAGES', file_name: 'person' },
      total_results: 1,
      notify_emails: [viewer.email],
      created_at: dogView.created_at,
    });
    // The list counts what the view's new filters match, not what its old ones did.
    const listed = (await server.api(owner.token, 'GET', base())).body.views.find((v: { id: string }) => v.id === dogView.id);
    expect(listed).toMatchObject({ name: 'People', total_results: 1 });
    const cleared = await server.api(owner.token, 'PATCH', `${base()}/${dogView.id}`, { notify_emails: [], alerting_enabled: false });
    expect(cleared.body).toMatchObject({ notify_emails: [], alerting_enabled: false, monitoring_enabled: true, name: 'People' });
  });

  it('applies a view in Explore with view_id; a view of another dataset is a 404', async () => {
    const dogView = (await saveDogs()).body;
    await server.api(owner.token, 'PATCH', `${base()}/${dogView.id}`, { name: 'People', filters: { file_name: 'person', threshold: 2 } });
    const all = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=100`);
    expect(fileNames(all)).toEqual(['dog.jpg', 'horses.jpg', 'person.jpg']);
    const viewed = await server.api(viewer.token, 'GET', `/api/v1/explore/${datasetId}?view_id=${dogView.id}&file_name=dog`);
    expect(viewed.status).toBe(200);
    expect(fileNames(viewed)).toEqual(['person.jpg']);
    expect(viewed.body.threshold).toBe(2);
    expect((await server.api(owner.token, 'GET', `/api/v1/explore/${otherDatasetId}?view_id=${dogView.id}`)).status).toBe(404);
    expect((await server.api(stranger.token, 'GET', `/api/v1/explore/${datasetId}?view_id=${dogView.id}`)).status).toBe(404);
  });
});

describe('who may do what with views', () => {
  let ownersView: string;
  let viewersView: string;

  beforeAll(async () => {
    ownersView = (await server.api(owner.token, 'POST', base(), { name: 'owner view' })).body.id;
    const mine = await server.api(viewer.token, 'POST', `${base()}?file_name=horses`, nameForm({ name: 'viewer view' }));
    expect(mine.status).toBe(200);
    expect(mine.body.created_by).toEqual({ user_id: viewer.user_id, email: viewer.email });
    viewersView = mine.body.id;
  });

  it('hides the views of a dataset the caller cannot see (404), and needs a token (401)', async () => {
    for (const [method, route, body] of [
      ['GET', base(), undefined],
      ['POST', base(), { name: 'x' }],
      ['GET', `${base()}/${ownersView}`, undefined],
      ['PATCH', `${base()}/${ownersView}`, { name: 'x' }],
      ['DELETE', `${base()}/${ownersView}`, undefined],
    ] as const) {
      const res = await server.api(stranger.token, method, route, body);
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body.detail).toBe('Dataset not found');
    }
    expect((await server.api(null, 'GET', base())).status).toBe(401);
  });

  it("lets a viewer change only their own views (403 on others'); an editor changes any", async () => {
    expect((await server.api(viewer.token, 'PATCH', `${base()}/${ownersView}`, { name: 'mine now' })).status).toBe(403);
    const denied = await server.api(viewer.token, 'DELETE', `${base()}/${ownersView}`);
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/creator of a saved view or an editor/);
    expect((await server.api(viewer.token, 'PATCH', `${base()}/${viewersView}`, { monitoring_enabled: true, alerting_enabled: true })).status).toBe(200);
    expect((await server.api(editor.token, 'PATCH', `${base()}/${viewersView}`, { name: 'renamed by editor' })).body.name).toBe('renamed by editor');
    expect((await server.api(owner.token, 'PATCH', `${base()}/${viewersView}`, { name: 'renamed by owner' })).status).toBe(200);
  });

  it('deletes a view: {ok: true}, then 404 for it everywhere', async () => {
    const doomed = (await server.api(viewer.token, 'POST', `${base()}?file_name=horses`, nameForm({ name: 'viewer view' }))).body.id;
    const res = await server.api(viewer.token, 'DELETE', `${base()}/${doomed}`);
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const again = await server.api(owner.token, method, `${base()}/${doomed}`, body);
      expect(again, method).toMatchObject({ status: 404, body: { detail: 'Saved view not found' } });
    }
    expect((await server.api(owner.token, 'GET', `${base(otherDatasetId)}/${ownersView}`)).status).toBe(404);
    expect((await server.api(owner.token, 'GET', base())).body.views.map((v: { id: string }) => v.id)).not.toContain(doomed);
  });
});

describe('views follow the dataset', () => {
  it('a clone of a snapshot gets the source dataset’s views, owned by whoever cloned it', async () => {
    expect((await saveDogs()).status).toBe(200);
    const source = (await server.api(owner.token, 'GET', base())).body.views as Array<Record<string, any>>;
    const snapshot = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body[0];
    expect((await server.api(editor.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${snapshot.snapshot_id}/clone`)).status).toBe(202);
    const clone = await waitFor(async () => {
      const list = (await server.api(editor.token, 'GET', '/api/v1/datasets')).body as Array<{ id: string; source_dataset_id: string | null; status_new: string }>;
      return list.find((d) => d.source_dataset_id === datasetId && d.status_new === 'READY');
    }, 60_000, 'clone READY');
    const copied = (await server.api(editor.token, 'GET', base(clone.id))).body.views as Array<Record<string, any>>;
    expect(copied.map((v) => [v.name, v.filters, v.monitoring_enabled, v.alerting_enabled])).toEqual(
      source.map((v) => [v.name, v.filters, v.monitoring_enabled, v.alerting_enabled]),
    );
    expect(new Set(copied.map((v) => v.created_by.email))).toEqual(new Set([editor.email]));
    expect(copied.every((v) => v.dataset_id === clone.id && v.notify_emails.length === 0)).toBe(true);
    expect(copied.map((v) => v.id)).not.toContain(source[0]!.id);
    expect(copied.map((v) => v.total_results)).toEqual(source.map((v) => v.total_results));
    expect((await server.api(owner.token, 'GET', base(clone.id))).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('documents every views and notifications route', async () => {
    const doc = (await server.api(null, 'GET', '/docs/json')).body;
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const expected of [
      'POST /api/v1/dataset/{dataset_id}/views',
      'GET /api/v1/dataset/{dataset_id}/views',
      'GET /api/v1/dataset/{dataset_id}/views/{view_id}',
      'PATCH /api/v1/dataset/{dataset_id}/views/{view_id}',
      'DELETE /api/v1/dataset/{dataset_id}/views/{view_id}',
      'GET /api/v1/notifications',
      'GET /api/v1/notifications/unread-count',
      'POST /api/v1/notifications/{notification_id}/read',
      'POST /api/v1/notifications/read-all',
      'GET /api/v1/notifications/stream',
    ]) {
      expect(documented).toContain(expected);
    }
    const explore = doc.paths['/api/v1/explore/{dataset_id}'].get.parameters.map((p: { name: string }) => p.name);
    expect(explore).toContain('view_id');
    expect(Object.keys(doc.paths['/api/v1/notifications/stream'].get.responses['200'].content)).toEqual(['text/event-stream']);
  });
});
