import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, form, generatedJpegs, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';
import { newDataset } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [owner, viewer, stranger] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
});
afterAll(() => server?.close());

const ZIP = Buffer.from('504b0304140000000000' + '00'.repeat(40), 'hex');

describe('creating a dataset from local files', () => {
  it('runs new_dataset → data_files → batches of files → process_files → READY', async () => {
    const { datasetId, taskId, dataset } = await createDataset(server, owner, 'photos', [
      [photo('dog.jpg'), photo('person.jpg')],
      [photo('horses.jpg'), photo('chelsea.png')],
    ]);
    expect(dataset).toMatchObject({ id: datasetId, status_new: 'READY', status: 'READY', progress: 100, n_images: 4, n_videos: 0, fatal_error_msg: null });

    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}`);
    expect(tasks.body.tasks).toMatchObject([
      { task_id: taskId, task_type: 'DATASET_CREATION', status: 'COMPLETED', progress_percentage: 100, dataset_status: 'READY', status_message: 'Dataset created: 4 file(s) processed' },
    ]);

    const media = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media`);
    expect(media.body.total).toBe(4);
    const dog = media.body.media.find((m: { file_name: string }) => m.file_name === 'dog.jpg');
    expect(dog).toMatchObject({ media_type: 'IMAGE', format: 'jpeg', mime: 'image/jpeg', width: 768, height: 576, phash: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('keeps one media item for a retried file (same name, same bytes) and two for a renamed copy', async () => {
    const dog = photo('dog.jpg');
    const { dataset } = await createDataset(server, owner, 'retries', [[dog], [dog], [{ name: 'dog-copy.jpg', bytes: dog.bytes }]]);
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 2 });
  });

  it('records a corrupt file and still creates the dataset from the good ones', async () => {
    const corrupt = { name: 'broken.jpg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]) };
    const { datasetId, dataset } = await createDataset(server, owner, 'with-corrupt', [[photo('dog.jpg'), corrupt, photo('person.jpg')]]);
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 2 });
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}`);
    expect(tasks.body.tasks[0].status_message).toBe('Dataset created: 2 file(s) processed, 1 could not be decoded');
  });

  it('ends in ERROR with fatal_error_msg when nothing usable was uploaded', async () => {
    const corrupt = { name: 'only-broken.png', bytes: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(500, 1)]) };
    const { datasetId, dataset } = await createDataset(server, owner, 'all-corrupt', [[corrupt]]);
    expect(dataset.status_new).toBe('ERROR');
    expect(dataset.fatal_error_msg).toMatch(/^No usable media: 1 file\(s\) could not be decoded \(only-broken.png: /);
    const tasks = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}`);
    expect(tasks.body.tasks[0]).toMatchObject({ status: 'FAILED', error_message: dataset.fatal_error_msg });
  });
});

describe('ingestion codes', () => {
  let datasetId: string;
  let transId: number;

  beforeAll(async () => {
    datasetId = await newDataset(server, owner, 'codes');
    await server.api(owner.token, 'PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: viewer.email });
    transId = await openTransaction(server, owner, datasetId);
  });

  it('numbers transactions per dataset', async () => {
    expect(transId).toBe(1);
    // Other tests here may open transactions on the shared dataset: this one counts on a dataset of its own.
    const numbered = await newDataset(server, owner, 'numbered');
    expect(await openTransaction(server, owner, numbered)).toBe(1);
    expect(await openTransaction(server, owner, numbered)).toBe(2);
  });

  it('takes a request of more files than it flushes at once, listing them in request order', async () => {
    const own = await newDataset(server, owner, 'many-files');
    const files = await generatedJpegs(70, { width: 64, height: 48 });
    const res = await upload(server, owner, own, await openTransaction(server, owner, own), files);
    expect(res.status).toBe(202);
    expect(res.body.files.map((f: { file_name: string }) => f.file_name)).toEqual(files.map((f) => f.name));
    expect(res.body.files.map((f: { size: number }) => f.size)).toEqual(files.map((f) => f.bytes.length));
  });

  it("422 for the field name 'files[]'", async () => {
    const res = await upload(server, owner, datasetId, transId, [{ ...photo('dog.jpg'), field: 'files[]' }]);
    expect(res).toMatchObject({ status: 422, body: { detail: "Wrong form field name 'files[]': use 'files' (repeated, one file each)" } });
  });

  it('400 for an archive or an unsupported format, naming the file, and nothing of the request is kept', async () => {
    const zip = await upload(server, owner, datasetId, transId, [photo('person.jpg'), { name: 'batch.zip', bytes: ZIP }]);
    expect(zip.status).toBe(400);
    expect(zip.body.detail).toMatch(/^Archives are not supported for dataset creation: batch.zip/);
    const text = await upload(server, owner, datasetId, transId, [{ name: 'notes.jpg', bytes: Buffer.from('just some text, whatever the name says') }]);
    expect(text.status).toBe(400);
    expect(text.body.detail).toMatch(/^Unsupported file format: notes.jpg/);
  });

  it('400 when the request has no files', async () => {
    const body = new FormData();
    body.append('comment', 'no files here');
    expect((await server.api(owner.token, 'POST', `/api/v1/ingestion/${datasetId}/data_files/${transId}`, body)).status).toBe(400);
  });

  it('404 for an unknown dataset or transaction, 403 for a viewer, 404 for a stranger', async () => {
    expect((await upload(server, owner, randomUUID(), 1, [photo('dog.jpg')])).status).toBe(404);
    expect(await upload(server, owner, datasetId, 99, [photo('dog.jpg')])).toMatchObject({ status: 404, body: { detail: 'Upload transaction 99 not found' } });
    expect((await server.api(owner.token, 'GET', `/api/v1/ingestion/${randomUUID()}/data_files`)).status).toBe(404);
    expect((await upload(server, viewer, datasetId, transId, [photo('dog.jpg')])).status).toBe(403);
    expect((await upload(server, stranger, datasetId, transId, [photo('dog.jpg')])).status).toBe(404);
    expect((await processFiles(server, stranger, datasetId, transId)).status).toBe(404);
  });

  it('400 when processing an empty transaction', async () => {
    const empty = await openTransaction(server, owner, datasetId);
    expect(await processFiles(server, owner, datasetId, empty)).toMatchObject({ status: 400, body: { detail: `Upload transaction ${empty} has no files; upload files in the form field 'files' first` } });
  });

  it('409 for uploads or processing after process_files, and for a new transaction once READY', async () => {
    // Processing changes the dataset for good, so this test submits a dataset of its own.
    const id = await newDataset(server, owner, 'submitted');
    const trans = await openTransaction(server, owner, id);
    expect((await upload(server, owner, id, trans, [photo('dog.jpg')])).status).toBe(202);
    expect((await processFiles(server, owner, id, trans)).status).toBe(202);
    expect(await upload(server, owner, id, trans, [photo('horses.jpg')])).toMatchObject({ status: 409, body: { detail: `Upload transaction ${trans} was already submitted for processing` } });
    expect((await processFiles(server, owner, id, trans)).status).toBe(409);
    await waitForDataset(server, owner, id, ['READY']);
    expect((await server.api(owner.token, 'GET', `/api/v1/ingestion/${id}/data_files`)).status).toBe(409);
  });

  it('401 without a token', async () => {
    expect((await server.api(null, 'POST', `/api/v1/ingestion/${datasetId}/data_files/${transId}`, form([photo('dog.jpg')]))).status).toBe(401);
  });
});
