import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { generatedJpegs, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';
import { hasStatus, newDataset, waitForTask } from '../support/tasks.js';

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { MAX_FILE_BYTES: '250000', MAX_FILES_PER_REQUEST: '10', MEDIA_CONCURRENCY: '1' } });
  owner = await server.createUser();
});
afterAll(() => server?.close());

describe('limits', () => {
  it('413 for a file over MAX_FILE_BYTES and for more files than MAX_FILES_PER_REQUEST', async () => {
    const datasetId = await newDataset(server, owner, 'limits');
    const transId = await openTransaction(server, owner, datasetId);
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(250_000);
    expect(await upload(server, owner, datasetId, transId, [{ name: 'big.jpg', bytes: big }])).toMatchObject({
      status: 413,
      body: { detail: 'File too large: big.jpg exceeds the limit of 250000 bytes' },
    });
    const eleven = await generatedJpegs(11, { width: 32, height: 32 });
    expect(await upload(server, owner, datasetId, transId, eleven)).toMatchObject({
      status: 413,
      body: { detail: 'Too many files in one request: the limit is 10; send them in batches' },
    });
    expect((await processFiles(server, owner, datasetId, transId)).status).toBe(400);
  });
});

describe('a cut upload', () => {
  it('leaves no partial file behind, and the transaction goes on', async () => {
    const datasetId = await newDataset(server, owner, 'cut');
    const transId = await openTransaction(server, owner, datasetId);
    await cutUpload(`${server.url}/api/v1/ingestion/${datasetId}/data_files/${transId}`, owner.token, photo('dog.jpg').bytes);
    const tmp = path.join(server.dataDir, 'blobs', 'tmp');
    await waitFor(async () => ((fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).length === 0 ? true : undefined), 5_000, 'temp files removed');

    expect((await upload(server, owner, datasetId, transId, [photo('person.jpg')])).status).toBe(202);
    expect((await processFiles(server, owner, datasetId, transId)).status).toBe(202);
    expect(await waitForDataset(server, owner, datasetId, ['READY'])).toMatchObject({ n_images: 1 });
  });
});

describe('abort and retry of a creation', () => {
  it('abort stops between media and leaves ERROR; retry resumes from the uploads and counts every file once', async () => {
    const datasetId = await newDataset(server, owner, 'abort-retry');
    const transId = await openTransaction(server, owner, datasetId);
    const files = await generatedJpegs(40, { width: 800, height: 600 });
    for (let i = 0; i < files.length; i += 10) expect((await upload(server, owner, datasetId, transId, files.slice(i, i + 10))).status).toBe(202);
    const taskId = (await processFiles(server, owner, datasetId, transId)).body.task_id as string;

    const running = await waitForTask(server, owner, datasetId, taskId, (t) => t.progress_percentage > 0, 'progress', 30_000);
    expect(running.status).toBe('RUNNING');
    const progressing = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`);
    expect(progressing.body).toMatchObject({ status_new: 'INDEXING' });
    expect(progressing.body.progress).toBeGreaterThan(0);

    const aborted = await server.api(owner.token, 'POST', `/api/v1/tasks/${taskId}/abort`);
    expect(aborted.body).toMatchObject({ status: 'ABORTED', dataset_status: 'ERROR' });
    const stopped = await waitForDataset(server, owner, datasetId, ['ERROR']);
    expect(stopped.fatal_error_msg).toBe('The task creating this dataset was aborted; retry it to resume');

    const retried = await server.api(owner.token, 'POST', `/api/v1/tasks/${taskId}/retry`);
    expect(retried.body).toMatchObject({ status: 'INITIALIZING', dataset_status: 'INDEXING' });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion', 60_000);
    expect(await waitForDataset(server, owner, datasetId, ['READY'])).toMatchObject({ n_images: 40, progress: 100, fatal_error_msg: null });
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=500`)).body.total).toBe(40);
  });
});

/** Sends the multipart head and half of a file, then drops the connection, as a client losing its network would. */
function cutUpload(url: string, token: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const boundary = 'cut-boundary';
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(bytes.length * 2) },
    });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    req.write(bytes.subarray(0, bytes.length / 2), () => setTimeout(() => req.destroy(), 100));
  });
}
