import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessFixture, type Caller, CALLERS, buildAccessFixture, photoForm, send } from '../support/access-fixture.js';
import { type TestServer, startTestServer } from '../support/server.js';

/**
 * Who may call each route:
 * - public: no credentials needed;
 * - user: any signed-in user, each seeing only their own (no dataset in the path);
 * - dataset-read: whoever the dataset is shared with; a stranger gets 404, as for a dataset that does not exist;
 * - dataset-write: the owner and editors; a viewer gets 403, a stranger 404;
 * - dataset-owner: the owner alone; viewers and editors get 403, a stranger 404;
 * - view-creator: the view's creator or an editor of its dataset; a viewer gets 403 on the owner's view;
 * - own-notification: the notification's user alone; everyone else gets 404.
 */
type Rule = 'public' | 'user' | 'dataset-read' | 'dataset-write' | 'dataset-owner' | 'view-creator' | 'own-notification';

interface Request {
  /** Values for the path's `{params}` beyond the fixture's defaults. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

interface Row {
  rule: Rule;
  /** A request that passes validation, so that only access decides a refusal. */
  request?: (f: AccessFixture, caller: Caller) => Request;
  /** What an allowed caller gets, where it is one status for all of them. */
  ok?: number | number[];
  /** The 404 detail for a caller who cannot see the object, where it is not the dataset's. */
  hidden?: string;
  /** The 403 detail for a caller who may see but not do this, where it is not the dataset's "change". */
  forbidden?: string;
  /** Removes or blocks what other rows use: runs after all the others, in table order. */
  last?: boolean;
}

const DATASET_HIDDEN = 'Dataset not found';
const CHANGE_FORBIDDEN = 'You do not have permission to change this dataset';
const SHARE_FORBIDDEN = 'You do not have permission to manage access to this dataset';
const TASK_HIDDEN = 'Task not found';

/** The editor and the owner each remove an object of their own; those refused get the shared one. */
const remover = (caller: Caller, own: Record<'editor' | 'owner', string>, shared: string) => (caller === 'editor' || caller === 'owner' ? own[caller] : shared);
const tags = (f: AccessFixture) => ({ body: { tags: ['matrix'], media_ids: [f.mediaId] } });
const draft = (f: AccessFixture) => ({ params: { dataset_id: f.draftId } });
const ofDataset = (f: AccessFixture) => ({ query: { dataset_id: f.datasetId } });

/** Every operation of the OpenAPI document, by method and path: a new route fails this file until it has a row. */
const MATRIX: Record<string, Row> = {
  'GET /metrics': { rule: 'public', ok: 200 },
  'GET /health': { rule: 'public', ok: 200 },
  'GET /ready': { rule: 'public', ok: 200 },
  // The web app's pages: 503 where web/dist is not built.
  'GET /sign-in': { rule: 'public', ok: [200, 503] },
  'GET /datasets': { rule: 'public', ok: [200, 503] },
  'GET /datasets/{*}': { rule: 'public', ok: [200, 503], request: () => ({ params: { '*': 'some/page' } }) },
  'GET /tasks': { rule: 'public', ok: [200, 503] },
  'GET /notifications': { rule: 'public', ok: [200, 503] },
  'GET /': { rule: 'public', ok: 200 },
  'POST /api/v1/auth/session': { rule: 'public', ok: 200, request: (f) => ({ body: { api_key: f.users.stranger.api_key, api_secret: f.users.stranger.api_secret } }) },
  'DELETE /api/v1/auth/session': { rule: 'public', ok: 204 },

  'GET /api/v1/auth/me': { rule: 'user', ok: 200 },
  'GET /api/v1/api_credentials': { rule: 'user', ok: 200 },
  'GET /api/v1/ingestion/new_dataset': { rule: 'user', ok: 200, request: () => ({ query: { dataset_name: 'matrix' } }) },
  'GET /api/v1/datasets': { rule: 'user', ok: 200 },
  // Filtered by the owner's dataset: a stranger's answer is empty (the leak check below), not an error.
  'GET /api/v1/tasks': { rule: 'user', ok: 200, request: (f) => ({ query: { dataset_id: f.datasetId, dataset_name: f.datasetName } }) },
  'GET /api/v1/tasks/filters': { rule: 'user', ok: 200 },
  'GET /api/v1/notifications': { rule: 'user', ok: 200, request: ofDataset },
  'GET /api/v1/notifications/unread-count': { rule: 'user', ok: 200, request: ofDataset },
  'GET /api/v1/notifications/stream': { rule: 'user', ok: 200, request: ofDataset },
  'POST /api/v1/notifications/read-all': { rule: 'user', ok: 200, request: ofDataset, last: true },
  'POST /api/v1/notifications/{notification_id}/read': { rule: 'own-notification', ok: 200, hidden: 'Notification not found or already read' },

  'GET /api/v1/ingestion/{dataset_id}/data_files': { rule: 'dataset-write', ok: 200, request: draft },
  'POST /api/v1/ingestion/{dataset_id}/data_files/{trans_id}': {
    rule: 'dataset-write',
    ok: 202,
    request: (f) => ({ params: { dataset_id: f.draftId, trans_id: String(f.uploadTransId) }, body: photoForm('files') }),
  },
  // The transaction holds no files: access passes, then the empty transaction is refused.
  'POST /api/v1/ingestion/{dataset_id}/process_files/{trans_id}': {
    rule: 'dataset-write',
    ok: 400,
    request: (f) => ({ params: { dataset_id: f.draftId, trans_id: String(f.emptyTransId) } }),
  },

  'GET /api/v1/dataset/{dataset_id}': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/issues': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/map': { rule: 'dataset-read', ok: 200 },
  'POST /api/v1/dataset/{dataset_id}/map/selection': { rule: 'dataset-read', ok: 200, request: () => ({ body: { rect: { min_x: 0, min_y: 0, max_x: 1, max_y: 1 } } }) },
  'PATCH /api/v1/dataset/{dataset_id}': { rule: 'dataset-write', ok: 200, request: () => ({ body: { description: 'seen by the access matrix' } }) },
  'DELETE /api/v1/dataset/{dataset_id}': { rule: 'dataset-owner', ok: 204, forbidden: 'You do not have permission to delete this dataset', request: draft, last: true },

  'POST /api/v1/dataset/{dataset_id}/share': { rule: 'dataset-owner', ok: 200, forbidden: SHARE_FORBIDDEN, request: (f) => ({ body: { user_email: f.users.invitee.email } }) },
  'PUT /api/v1/manage/{dataset_id}/invite': { rule: 'dataset-owner', ok: 200, forbidden: SHARE_FORBIDDEN, request: (f) => ({ body: { grant_to_user_email: f.users.invitee.email } }) },
  'GET /api/v1/manage/{dataset_id}/share': { rule: 'dataset-read', ok: 200 },
  'DELETE /api/v1/manage/{dataset_id}/share': {
    rule: 'dataset-owner',
    ok: 204,
    forbidden: SHARE_FORBIDDEN,
    request: (f) => ({ query: { user_email: f.users.revokee.email } }),
    last: true,
  },

  'GET /api/v1/tasks/{task_id}': { rule: 'dataset-read', ok: 200, hidden: TASK_HIDDEN },
  // The task is COMPLETED: access passes, then the abort (409) and the retry (400) are refused.
  'POST /api/v1/tasks/{task_id}/abort': { rule: 'dataset-write', ok: 409, hidden: TASK_HIDDEN },
  'POST /api/v1/tasks/{task_id}/retry': { rule: 'dataset-write', ok: 400, hidden: TASK_HIDDEN },

  'GET /api/v1/dataset/{dataset_id}/media': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/media/{media_id}': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/media/{media_id}/{variant}': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/media/{media_id}/duplicates': { rule: 'dataset-read', ok: 200 },
  // No media source: access and the dataset's state pass, then the request is refused (400).
  'POST /api/v1/dataset/{dataset_id}/add_media': { rule: 'dataset-write', ok: 400, request: () => ({ body: new URLSearchParams({ auto_reindex: 'false' }) }) },
  // READY, not PARTIAL INDEX: access passes, then the state is refused (409).
  'POST /api/v1/dataset/{dataset_id}/reindex': { rule: 'dataset-write', ok: 409 },
  // A relative path: access passes, then the path is refused (422).
  'GET /api/v1/process/add_media': { rule: 'dataset-write', ok: 422, request: (f) => ({ query: { dataset_id: f.datasetId, path: 'photos' } }) },

  'GET /api/v1/dataset/{dataset_id}/snapshot': { rule: 'dataset-read', ok: 200 },
  'POST /api/v1/dataset/{dataset_id}/snapshot': { rule: 'dataset-write', ok: 200, request: () => ({ body: { name: 'by the matrix' } }) },
  'PATCH /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}': { rule: 'dataset-write', ok: 200, request: () => ({ body: { description: 'renamed by the matrix' } }) },
  'DELETE /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}': {
    rule: 'dataset-write',
    ok: 200,
    request: (f, caller) => ({ params: { snapshot_id: remover(caller, f.doomedSnapshots, f.snapshotId) } }),
    last: true,
  },
  'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone': { rule: 'dataset-write', ok: 202, last: true },
  // The editor's restore makes the dataset READ ONLY, so the owner's right after may be 409.
  'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore': { rule: 'dataset-write', last: true },

  'GET /api/v1/dataset/{dataset_id}/export_context_async': { rule: 'dataset-read', ok: 200, request: () => ({ query: { file_name: 'matrix', export_format: 'json' } }) },
  'POST /api/v1/dataset/{dataset_id}/export_entities_async': {
    rule: 'dataset-read',
    ok: 200,
    request: (f) => ({ query: { export_format: 'json' }, body: { media_selection: [{ type: 'media', payload: { media_ids: [f.mediaId] } }] } }),
  },
  'GET /api/v1/dataset/{dataset_id}/export_status': { rule: 'dataset-read', ok: 200, request: (f) => ({ query: { export_task_id: f.exportId } }) },
  'GET /api/v1/exports/{export_id}/download': { rule: 'dataset-read', ok: 200 },

  'GET /api/v1/enrichment/{dataset_id}/list_models': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/enrichment/{dataset_id}/context': { rule: 'dataset-read', ok: 200 },
  // An unknown model: access passes, then the request is refused (422) before any model runs.
  'POST /api/v1/dataset/{dataset_id}/enrich_dataset': { rule: 'dataset-write', ok: 422, request: () => ({ body: { enrichment_models: { CAPTION_IMAGES: 'no_such_model' } } }) },

  // Anyone who can read a dataset may save views on it.
  'POST /api/v1/dataset/{dataset_id}/views': { rule: 'dataset-read', ok: 200, request: () => ({ body: { name: 'saved by the matrix', alerting_enabled: false } }) },
  'GET /api/v1/dataset/{dataset_id}/views': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/views/{view_id}': { rule: 'dataset-read', ok: 200 },
  'PATCH /api/v1/dataset/{dataset_id}/views/{view_id}': { rule: 'view-creator', ok: 200, request: () => ({ body: { name: 'kept, renamed' } }) },
  'DELETE /api/v1/dataset/{dataset_id}/views/{view_id}': {
    rule: 'view-creator',
    ok: 200,
    request: (f, caller) => ({ params: { view_id: remover(caller, f.doomedViews, f.viewId) } }),
    last: true,
  },

  'POST /api/v1/dataset/{dataset_id}/media/tags': { rule: 'dataset-write', ok: 200, request: tags },
  'POST /api/v1/dataset/{dataset_id}/media/tags/remove': { rule: 'dataset-write', ok: 200, request: tags },
  'PUT /api/v1/dataset/{dataset_id}/media/label': { rule: 'dataset-write', ok: 200, request: (f) => ({ body: { label: 'dog', media_ids: [f.mediaId] } }) },
  // No objects were detected: access passes, then the unknown object id is refused (422).
  'PUT /api/v1/dataset/{dataset_id}/objects/label': { rule: 'dataset-write', ok: 422, request: () => ({ body: { object_ids: [crypto.randomUUID()], label: 'dog' } }) },
  'GET /api/v1/dataset/{dataset_id}/tags': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/labels': { rule: 'dataset-read', ok: 200 },
  'POST /api/v1/dataset/{dataset_id}/labels/propagate': { rule: 'dataset-write', ok: 200, request: () => ({ body: { threshold: 0, dry_run: true } }) },
  'POST /api/v1/dataset/{dataset_id}/dedup': { rule: 'dataset-write', ok: 200, request: () => ({ body: { scope: 'exact', keep: 'largest_resolution', dry_run: true } }) },
  // Access passes, then the unknown strategy is refused (422) and no task starts.
  'POST /api/v1/dataset/{dataset_id}/select': { rule: 'dataset-write', ok: 422, request: () => ({ body: { n: 1, strategy: 'nope' } }) },
  // The fixture has at most one labelled media: access passes, then the analysis is refused (409) and nothing starts.
  'POST /api/v1/dataset/{dataset_id}/label_errors': { rule: 'dataset-write', ok: 409, request: () => ({ body: { k: 10 } }) },

  // A file without a key column: access passes, then the file is refused (400) and nothing changes.
  'POST /api/v1/dataset/{dataset_id}/custom_metadata': {
    rule: 'dataset-write',
    ok: 400,
    request: () => {
      const body = new FormData();
      body.set('file', new Blob(['name,score\ndog.jpg,1']), 'meta.csv');
      return { body };
    },
  },
  'GET /api/v1/dataset/{dataset_id}/custom_metadata/schema': { rule: 'dataset-read', ok: 200 },
  'GET /api/v1/dataset/{dataset_id}/custom_metadata/imports/{task_id}': { rule: 'dataset-read', ok: 200, request: (f) => ({ params: { task_id: f.importTaskId } }) },

  // A field the dataset does not have: access passes, then the request is refused (422) and no task starts.
  'POST /api/v1/dataset/{dataset_id}/leakage': { rule: 'dataset-read', ok: 422, request: () => ({ body: { split_field: 'no_such_field' } }) },
  // The creation task is no leakage run: access passes, then the task is refused (422).
  'GET /api/v1/dataset/{dataset_id}/leakage/{task_id}': { rule: 'dataset-read', ok: 422, request: (f) => ({ params: { task_id: f.taskId } }) },
  'GET /api/v1/dataset/{dataset_id}/leakage/{task_id}/pairs': { rule: 'dataset-read', ok: 422, request: (f) => ({ params: { task_id: f.taskId } }) },

  'GET /api/v1/explore/{dataset_id}': { rule: 'dataset-read', ok: 200, request: (f) => ({ query: { anchor_media_id: f.mediaId, anchor_type: 'MEDIA' } }) },
  'POST /api/v1/dataset/{dataset_id}/search-image-similarity': { rule: 'dataset-read', ok: 200, request: () => ({ body: photoForm('file') }) },
};

type Expected = { status: number; detail: string } | 'allowed';

/** The rule table itself: what each caller must get. */
function expected(row: Row, caller: Caller): Expected {
  const hidden = { status: 404, detail: row.hidden ?? DATASET_HIDDEN };
  switch (row.rule) {
    case 'public':
    case 'user':
      return 'allowed';
    case 'own-notification':
      return caller === 'owner' ? 'allowed' : hidden;
    case 'dataset-read':
      return caller === 'stranger' ? hidden : 'allowed';
    case 'dataset-write':
      if (caller === 'stranger') return hidden;
      return caller === 'viewer' ? { status: 403, detail: row.forbidden ?? CHANGE_FORBIDDEN } : 'allowed';
    case 'dataset-owner':
      if (caller === 'stranger') return hidden;
      return caller === 'owner' ? 'allowed' : { status: 403, detail: row.forbidden ?? CHANGE_FORBIDDEN };
    case 'view-creator':
      if (caller === 'stranger') return hidden;
      return caller === 'viewer' ? { status: 403, detail: 'Only the creator of a saved view or an editor of its dataset may change or delete it' } : 'allowed';
  }
}

/** The statuses the document must list for a rule: a refusal a route can give is documented. */
function documentedRefusals(rule: Rule): string[] {
  if (rule === 'public') return [];
  if (rule === 'user') return ['401'];
  const refusals = CALLERS.map((caller) => expected({ rule }, caller)).filter((e): e is Exclude<Expected, 'allowed'> => e !== 'allowed');
  return ['401', ...new Set(refusals.map((e) => String(e.status)))];
}

let server: TestServer;
let f: AccessFixture;
let operations: Map<string, { responses: Record<string, unknown> }>;

beforeAll(async () => {
  server = await startTestServer();
  f = await buildAccessFixture(server);
  const doc = await send(server.url, null, 'GET', '/docs/json');
  expect(doc.status).toBe(200);
  operations = new Map();
  for (const [path, methods] of Object.entries(doc.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
}, 120_000);
afterAll(() => server?.close());

/** The route of a row for a caller: path params from the fixture unless the row names them, then its query. */
function build(key: string, row: Row, caller: Caller) {
  const [method, template] = key.split(' ') as [string, string];
  const request = row.request?.(f, caller) ?? {};
  const defaults: Record<string, string> = {
    dataset_id: f.datasetId,
    media_id: f.mediaId,
    variant: 'thumbnail',
    task_id: f.taskId,
    snapshot_id: f.snapshotId,
    view_id: f.viewId,
    export_id: f.exportId,
    notification_id: f.notificationId,
  };
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = request.params?.[name] ?? defaults[name];
    if (value === undefined) throw new Error(`${key}: no value for {${name}}`);
    return value;
  });
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  return { method, route: `${path}${query}`, body: request.body };
}

describe('the access matrix', () => {
  it('has one row for each operation of the live OpenAPI document, and no row without one', () => {
    const documented = [...operations.keys()].sort();
    expect({ withoutRow: documented.filter((k) => !(k in MATRIX)), withoutOperation: Object.keys(MATRIX).filter((k) => !operations.has(k)) }).toEqual({
      withoutRow: [],
      withoutOperation: [],
    });
  });

  it('documents every refusal a rule gives (401, 403, 404)', () => {
    const missing = Object.entries(MATRIX).flatMap(([key, row]) => {
      const responses = operations.get(key)?.responses ?? {};
      return documentedRefusals(row.rule)
        .filter((status) => !(status in responses))
        .map((status) => `${key}: ${status}`);
    });
    expect(missing).toEqual([]);
  });

  it('401 with no token on every route that is not public', async () => {
    const wrong: string[] = [];
    for (const [key, row] of Object.entries(MATRIX)) {
      if (row.rule === 'public') continue;
      const { method, route, body } = build(key, row, 'stranger');
      const res = await send(server.url, null, method, route, body);
      if (res.status !== 401 || res.body?.detail !== 'Not authenticated') wrong.push(`${key}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  /**
   * The stranger again, on a dataset of their own but naming the owner's objects (media, snapshot, view, export,
   * import): those are not found under it either. Rows that name nothing of the owner's but the dataset are skipped.
   */
  async function strangerWithOwnDataset(key: string, row: Row) {
    const own = build(key, row, 'stranger');
    const route = own.route.replaceAll(f.datasetId, f.strangerDatasetId).replaceAll(f.draftId, f.strangerDatasetId);
    if (route === own.route) return;
    const bodyText = own.body === undefined || own.body instanceof FormData ? '' : own.body instanceof URLSearchParams ? own.body.toString() : JSON.stringify(own.body);
    const inRoute = f.datasetSecrets.filter((s) => route.includes(s));
    const inBody = f.datasetSecrets.filter((s) => bodyText.includes(s));
    if (inRoute.length + inBody.length === 0) return;
    const res = await send(server.url, f.users.stranger.token, own.method, route, own.body);
    const who = `${key} as the stranger on their own dataset: ${res.status} ${res.text.slice(0, 200)}`;
    // An id in a body is the caller's own input: "unknown in this dataset" (422) says the same as 404.
    expect(inRoute.length > 0 ? [404] : [404, 422], who).toContain(res.status);
    for (const secret of f.datasetSecrets.filter((s) => !inRoute.includes(s) && !inBody.includes(s))) expect(res.text, `${who} leaks ${secret}`).not.toContain(secret);
  }

  const ordered = [...Object.entries(MATRIX).filter(([, row]) => !row.last), ...Object.entries(MATRIX).filter(([, row]) => row.last)];
  it.each(ordered)('%s', async (key, row) => {
    // Those refused call first, so that nothing an allowed call changes decides what they get.
    if (row.rule !== 'public' && row.rule !== 'user') await strangerWithOwnDataset(key, row);
    const callers = row.rule === 'public' ? [null] : CALLERS;
    for (const caller of callers) {
      const { method, route, body } = build(key, row, caller ?? 'stranger');
      const res = await send(server.url, caller && f.users[caller].token, method, route, body);
      const who = `${key} as ${caller ?? 'nobody'}: ${res.status} ${res.text.slice(0, 200)}`;
      const want = caller ? expected(row, caller) : 'allowed';
      if (want === 'allowed') {
        expect([401, 403, 404], who).not.toContain(res.status);
        expect(res.status, who).toBeLessThan(500);
        if (row.ok !== undefined) expect([row.ok].flat(), who).toContain(res.status);
      } else {
        expect({ status: res.status, body: res.body }, who).toEqual({ status: want.status, body: { detail: want.detail } });
      }
      // Nothing of the dataset reaches a stranger, and nothing private to the owner reaches anyone else.
      const secrets = caller === 'stranger' ? f.datasetSecrets : caller === 'owner' ? [] : f.ownerSecrets;
      for (const secret of secrets) expect(res.text, `${who} leaks ${secret}`).not.toContain(secret);
    }
  });
});
