import { NotificationsRepo } from '../../src/modules/notifications/notifications.repo.js';
import { createDataset, form, openTransaction, photo } from './ingest.js';
import { type TestServer, type TestUser, uniqueEmail, waitFor } from './server.js';

/** Who calls a route in the access matrix: the dataset's owner, the two kinds of grant, and a user with none. */
export type Caller = 'stranger' | 'viewer' | 'editor' | 'owner';
export const CALLERS: readonly Caller[] = ['stranger', 'viewer', 'editor', 'owner'];

/** Objects a destructive route removes: one for each caller who may remove it, so no caller finds it gone. */
type PerRemover = Record<'editor' | 'owner', string>;

/** Everything the matrix calls routes on: one READY dataset of the owner's with one of each thing a route names. */
export interface AccessFixture {
  users: Record<Caller, TestUser> & { invitee: TestUser; revokee: TestUser };
  /** The READY dataset, shared with the viewer (POST share) and the editor (PUT invite, role editor). */
  datasetId: string;
  datasetName: string;
  /** A READY dataset of the stranger's own, for calls that name the owner's objects under it. */
  strangerDatasetId: string;
  /** An empty dataset still being created, shared the same way: for the upload routes, and the one DELETE removes. */
  draftId: string;
  /** Open transactions of the draft: one holding nothing (process_files refuses it), one to upload into. */
  emptyTransId: number;
  uploadTransId: number;
  mediaId: string;
  /** The creation task of the dataset (COMPLETED) and its custom metadata import. */
  taskId: string;
  importTaskId: string;
  /** The current snapshot, and older ones for the editor's and the owner's DELETE. */
  snapshotId: string;
  doomedSnapshots: PerRemover;
  /** The owner's saved view, and more of the owner's for the editor's and the owner's DELETE. */
  viewId: string;
  doomedViews: PerRemover;
  /** A COMPLETED export. */
  exportId: string;
  /** An unread notification of the owner's. */
  notificationId: string;
  /** Strings a stranger must never see in any answer: the ids and name of what the dataset holds. */
  datasetSecrets: string[];
  /** Strings only the owner may see: their own notification and API key. */
  ownerSecrets: string[];
}

async function ok(server: TestServer, user: TestUser, method: string, route: string, body?: unknown) {
  const res = await server.api(user.token, method, route, body);
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${res.text}`);
  return res.body;
}

async function grantBoth(server: TestServer, owner: TestUser, datasetId: string, viewer: TestUser, editor: TestUser) {
  await ok(server, owner, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: viewer.email });
  await ok(server, owner, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
}

/** Builds the fixture through the API the way clients do; only the notification is written straight to the database. */
export async function buildAccessFixture(server: TestServer): Promise<AccessFixture> {
  const newUser = () => server.createUser();
  const [stranger, viewer, editor, owner, invitee, revokee] = await Promise.all([newUser(), newUser(), newUser(), newUser(), newUser(), newUser()]);
  const datasetName = `access-matrix-${uniqueEmail('dataset')}`;
  const [created, strangers] = await Promise.all([
    createDataset(server, owner, datasetName, [[photo('dog.jpg'), photo('chelsea.png')]]),
    createDataset(server, stranger, 'the stranger\'s own', [[photo('person.jpg')]]),
  ]);
  for (const { dataset } of [created, strangers]) if (dataset.status_new !== 'READY') throw new Error(`dataset ended ${dataset.status_new}`);
  const { datasetId, taskId } = created;
  const ds = `/api/v1/dataset/${datasetId}`;
  await grantBoth(server, owner, datasetId, viewer, editor);
  await ok(server, owner, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: revokee.email });

  const media = await ok(server, owner, 'GET', `${ds}/media`);
  const mediaId = media.media.find((m: { file_name: string }) => m.file_name === 'dog.jpg').media_id as string;

  const meta = new FormData();
  meta.set('file', new Blob(['file_name,mood\ndog.jpg,happy']), 'meta.csv');
  const imported = await ok(server, owner, 'POST', `${ds}/custom_metadata`, meta);
  const importTaskId = imported.task_id as string;
  await waitFor(async () => ((await ok(server, owner, 'GET', `${ds}/custom_metadata/imports/${importTaskId}`)).status === 'COMPLETED' ? true : undefined), 30_000, 'import');

  const exportId = (await ok(server, owner, 'GET', `${ds}/export_context_async?file_name=matrix&export_format=json`)).id as string;
  await waitFor(async () => ((await ok(server, owner, 'GET', `${ds}/export_status?export_task_id=${exportId}`)).status === 'COMPLETED' ? true : undefined), 30_000, 'export');

  // The snapshot made last is the current one, which cannot be deleted: the doomed ones come first.
  const snapshot = async (name: string) => (await ok(server, owner, 'POST', `${ds}/snapshot`, { name })).snapshot_id as string;
  const doomedSnapshots = { editor: await snapshot('doomed by the editor'), owner: await snapshot('doomed by the owner') };
  const snapshotId = await snapshot('current');

  const view = async (name: string) => (await ok(server, owner, 'POST', `${ds}/views`, { name })).id as string;
  const viewId = await view('kept');
  const doomedViews = { editor: await view('doomed by the editor'), owner: await view('doomed by the owner') };

  const notificationId = await ownerNotification(server, owner, datasetId, viewId);

  const draftId = (await ok(server, owner, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=draft')).dataset_id as string;
  await grantBoth(server, owner, draftId, viewer, editor);
  const emptyTransId = await openTransaction(server, owner, draftId);
  const uploadTransId = await openTransaction(server, owner, draftId);

  return {
    users: { stranger, viewer, editor, owner, invitee, revokee },
    datasetId,
    datasetName,
    strangerDatasetId: strangers.datasetId,
    draftId,
    emptyTransId,
    uploadTransId,
    mediaId,
    taskId,
    importTaskId,
    snapshotId,
    doomedSnapshots,
    viewId,
    doomedViews,
    exportId,
    notificationId,
    datasetSecrets: [datasetId, datasetName, draftId, mediaId, taskId, importTaskId, snapshotId, viewId, exportId, notificationId],
    ownerSecrets: [notificationId, owner.api_key],
  };
}

/** A batch alert for the owner, as the alert sweep writes one (a real alert needs a second batch of media: seconds). */
async function ownerNotification(server: TestServer, owner: TestUser, datasetId: string, viewId: string): Promise<string> {
  const { db } = server.loupe.container.database;
  const batchId = crypto.randomUUID();
  await new NotificationsRepo(db).insert(db, [
    {
      user_id: owner.user_id,
      dataset_id: datasetId,
      entity_type: 'saved_view',
      entity_id: viewId,
      batch_id: batchId,
      title: 'New results for kept',
      message: '1 new result',
      metadata: { batch_id: batchId, is_alert: true, view_name: 'kept', dataset_name: 'matrix', result_count: 1 },
    },
  ]);
  const row = await db.selectFrom('notifications').select('id').where('batch_id', '=', batchId).executeTakeFirstOrThrow();
  return row.id;
}

/** One photo in the form field `field`, for the routes that take a file. */
export const photoForm = (field: string) => form([{ ...photo('dog.jpg'), field }]);

export interface MatrixResponse {
  status: number;
  text: string;
  body: any;
}

/**
 * One request as a client sends it; a Server-Sent Events stream is answered by its status and headers, then closed
 * (its body never ends).
 */
export async function send(baseUrl: string, token: string | null, method: string, route: string, body?: unknown): Promise<MatrixResponse> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof URLSearchParams) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}${route}`, { method, headers, body: payload, signal: controller.signal, redirect: 'manual' });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, text: '', body: undefined };
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, body: parsed };
}
