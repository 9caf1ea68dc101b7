import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { form, generatedJpegs, openTransaction, processFiles, upload, waitForDataset } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let folder: string;
/** One dataset carried through creation, add_media, reindex, the on-premises source, restore and clone, in order. */
let datasetId: string;
let creationTaskId: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const getTask = (id: string, user = owner) => server.api(user.token, 'GET', `/api/v1/tasks/${id}`);

/** The 202 names its task in Location; GET on it answers that task, of the given type, on the given dataset. */
async function followLocation(res: ApiResponse, taskType: string, onDataset = datasetId) {
  expect(res.status, res.text).toBe(202);
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(/^\/api\/v1\/tasks\/[0-9a-f-]{36}$/);
  const taskId = location.split('/').pop()!;
  expect(taskId).toMatch(UUID);
  const task = await server.api(owner.token, 'GET', location);
  expect(task.status).toBe(200);
  expect(task.body).toMatchObject({ task_id: taskId, task_type: taskType, dataset_id: onDataset, created_by: owner.email });
  return taskId;
}

const untilEnded = (taskId: string) =>
  waitFor(async () => {
    const task = (await getTask(taskId)).body;
    if (task.status === 'FAILED' || task.status === 'ABORTED') throw new Error(`task ${task.task_type} ${task.status}: ${task.error_message}`);
    return task.status === 'COMPLETED' ? task : undefined;
  }, { timeout: 60_000, interval: 100, what: 'task COMPLETED' });

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-location-'));
  const [local] = await generatedJpegs(1);
  fs.writeFileSync(path.join(folder, 'local.jpg'), local!.bytes);
  server = await startTestServer({ env: { LOCAL_MEDIA_ROOTS: folder } });
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

// The tests run in order on one dataset: each operation needs the state the one before left.
describe('a 202 that starts a task names it in Location (GET /api/v1/tasks/{task_id})', () => {
  it('process_files: its body and its Location name the same DATASET_CREATION task', async () => {
    datasetId = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=located')).body.dataset_id;
    const transId = await openTransaction(server, owner, datasetId);
    const images = await generatedJpegs(4);
    expect((await upload(server, owner, datasetId, transId, images.slice(0, 3))).status).toBe(202);
    const res = await processFiles(server, owner, datasetId, transId);
    creationTaskId = await followLocation(res, 'DATASET_CREATION');
    expect(res.body).toEqual({ dataset_id: datasetId, task_id: creationTaskId });
    await untilEnded(creationTaskId);
    await waitForDataset(server, owner, datasetId, ['READY']);
  });

  it('GET answers exactly the row the task list shows, to anyone who can see the dataset', async () => {
    await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
    const listed = (await server.api(viewer.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}`)).body.tasks;
    const one = await getTask(creationTaskId, viewer);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed.find((t: { task_id: string }) => t.task_id === creationTaskId));
    expect(one.body).toMatchObject({ status: 'COMPLETED', dataset_name: 'located', dataset_status: 'READY', progress_percentage: 100 });
  });

  it('add_media: empty body, Location of its MEDIA_ADDITION task', async () => {
    const [, , , fourth] = await generatedJpegs(4);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form([fourth!]));
    expect(res.text).toBe('');
    await untilEnded(await followLocation(res, 'MEDIA_ADDITION'));
    await waitForDataset(server, owner, datasetId, ['PARTIAL INDEX']);
  });

  it('reindex: empty body, Location of its REINDEX task', async () => {
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`);
    expect(res.text).toBe('');
    await untilEnded(await followLocation(res, 'REINDEX'));
    await waitForDataset(server, owner, datasetId, ['READY']);
  });

  it('the on-premises source (GET /api/v1/process/add_media): empty body, Location of its MEDIA_ADDITION task', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/process/add_media?dataset_id=${datasetId}&path=${encodeURIComponent(folder)}`);
    expect(res.text).toBe('');
    await untilEnded(await followLocation(res, 'MEDIA_ADDITION'));
    expect(await waitForDataset(server, owner, datasetId, ['PARTIAL INDEX'])).toMatchObject({ n_images: 5 });
  });

  it('snapshot restore: empty body, Location of its SNAPSHOT_RESTORE task on the dataset', async () => {
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/current/restore`);
    expect(res.text).toBe('');
    await untilEnded(await followLocation(res, 'SNAPSHOT_RESTORE'));
    expect(await waitForDataset(server, owner, datasetId, ['READY'])).toMatchObject({ n_images: 3 });
  });

  it('snapshot clone: empty body, Location of its SNAPSHOT_CLONE task, whose dataset_id is the new dataset', async () => {
    const [snapshot] = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body;
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${snapshot.snapshot_id}/clone`);
    expect(res.text).toBe('');
    const location = res.headers.get('location')!;
    const cloneId = (await server.api(owner.token, 'GET', location)).body.dataset_id;
    expect(cloneId).not.toBe(datasetId);
    await followLocation(res, 'SNAPSHOT_CLONE', cloneId);
    expect((await untilEnded(location.split('/').pop()!)).dataset_name).toBe('located (cloned)');
    expect(await waitForDataset(server, owner, cloneId, ['READY'])).toMatchObject({ display_name: 'located (cloned)', n_images: 3 });
  });

  it('custom_metadata: the task_id body and a Location of the same CUSTOM_METADATA task', async () => {
    const body = new FormData();
    body.append('file', new Blob(['file_name,score\ngenerated-0.jpg,1\n']), 'scores.csv');
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/custom_metadata`, body);
    expect(res.body).toEqual({ task_id: await followLocation(res, 'CUSTOM_METADATA') });
    await untilEnded(res.body.task_id);
  });
});

describe('GET /api/v1/tasks/{task_id} refusals', () => {
  it('404 with a detail for an unknown task and for a task on a dataset the caller cannot see', async () => {
    for (const res of [await getTask('00000000-0000-4000-8000-000000000000'), await getTask(creationTaskId, stranger)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Task not found' });
    }
  });

  it('422 with a detail for a malformed id, 401 without a token', async () => {
    const res = await getTask('not-a-uuid');
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/task_id/);
    expect((await server.api(null, 'GET', `/api/v1/tasks/${creationTaskId}`)).status).toBe(401);
  });
});
