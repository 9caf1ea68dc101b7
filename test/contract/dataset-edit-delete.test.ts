import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, generatedJpegs, openTransaction, photo, processFiles, upload } from '../support/ingest.js';
import { hasStatus, newDataset, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { BLOB_GC_GRACE_SECONDS: '0', VERSION_GC_GRACE_SECONDS: '0', MEDIA_CONCURRENCY: '1' } });
  [owner, editor, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
});
afterAll(() => server?.close());

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('PATCH /api/v1/dataset/{id}', () => {
  it('renames and re-describes; data is unchanged', async () => {
    const { datasetId } = await createDataset(server, owner, 'before', [[photo('dog.jpg')]]);
    const res = await server.api(owner.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { display_name: 'after', description: 'street dogs' });
    expect(res).toMatchObject({ status: 200, body: { id: datasetId, display_name: 'after', description: 'street dogs', n_images: 1, status_new: 'READY' } });
    expect((await server.api(owner.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { description: '' })).body.display_name).toBe('after');
  });

  it('422 for an empty body, an unknown field or an empty name; 403 for a viewer; 404 for a stranger', async () => {
    const datasetId = await newDataset(server, owner, 'patch-codes');
    expect((await server.api(owner.token, 'PATCH', `/api/v1/dataset/${datasetId}`, {})).status).toBe(422);
    expect((await server.api(owner.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { name: 'x' })).status).toBe(422);
    expect((await server.api(owner.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { display_name: '' })).status).toBe(422);
    await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'viewer' });
    expect((await server.api(editor.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { display_name: 'x' })).status).toBe(403);
    expect((await server.api(stranger.token, 'PATCH', `/api/v1/dataset/${datasetId}`, { display_name: 'x' })).status).toBe(404);
  });
});

describe('DELETE /api/v1/dataset/{id}', () => {
  it('is for the owner only: 403 for an editor, 404 for a stranger or an unknown id', async () => {
    const datasetId = await newDataset(server, owner, 'delete-codes');
    await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: editor.email, role: 'editor' });
    expect(await server.api(editor.token, 'DELETE', `/api/v1/dataset/${datasetId}`)).toMatchObject({
      status: 403,
      body: { detail: 'You do not have permission to delete this dataset' },
    });
    expect((await server.api(stranger.token, 'DELETE', `/api/v1/dataset/${datasetId}`)).status).toBe(404);
    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${randomUUID()}`)).status).toBe(404);
  });

  it('409 while a task runs on the dataset', async () => {
    const datasetId = await newDataset(server, owner, 'busy');
    const transId = await openTransaction(server, owner, datasetId);
    await upload(server, owner, datasetId, transId, await generatedJpegs(5));
    const taskId = (await processFiles(server, owner, datasetId, transId)).body.task_id;
    expect(await server.api(owner.token, 'DELETE', `/api/v1/dataset/${datasetId}`)).toMatchObject({
      status: 409,
      body: { detail: 'A DATASET_CREATION task is already running on this dataset' },
    });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion', 60_000);
  });

  it('removes the dataset and its tasks, and frees the blobs no other dataset uses', async () => {
    const shared = photo('dog.jpg');
    const onlyHere = photo('person.jpg');
    const keep = await createDataset(server, owner, 'keeps dog', [[shared]]);
    const gone = await createDataset(server, owner, 'goes away', [[shared, onlyHere]]);
    const blobs = server.loupe.container.blobs;
    expect(await blobs.stat(sha(onlyHere.bytes))).not.toBeNull();

    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${gone.datasetId}`)).status).toBe(204);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${gone.datasetId}`)).status).toBe(404);
    expect((await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${gone.datasetId}`)).body.total).toBe(0);

    await waitFor(async () => ((await blobs.stat(sha(onlyHere.bytes))) === null ? true : undefined), 10_000, 'blob reclaimed');
    expect(await blobs.stat(sha(shared.bytes))).not.toBeNull();
    const kept = await server.api(owner.token, 'GET', `/api/v1/dataset/${keep.datasetId}/media`);
    const dog = kept.body.media[0];
    expect((await fetch(dog.media_uri)).status).toBe(200);
    expect((await fetch(dog.media_thumb_uri)).status).toBe(200);
  });
});

describe('a rejected upload request', () => {
  it('leaves no blob behind once the sweep runs', async () => {
    const datasetId = await newDataset(server, owner, 'rejected');
    const transId = await openTransaction(server, owner, datasetId);
    const [stored] = await generatedJpegs(1, { width: 64, height: 64 });
    const zip = Buffer.from('504b0304140000000000' + '00'.repeat(40), 'hex');
    const res = await upload(server, owner, datasetId, transId, [stored!, { name: 'later.zip', bytes: zip }]);
    expect(res.status).toBe(400);
    const blobs = server.loupe.container.blobs;
    await waitFor(async () => ((await blobs.stat(sha(stored!.bytes))) === null ? true : undefined), 10_000, 'orphan blob reclaimed');
  });
});
