import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDefinition } from '../../src/jobs/registry.js';
import { openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { hasStatus, newDataset, waitForTask } from '../support/tasks.js';

/**
 * A stand-in creation that never touches the dataset row itself (no head swap): every status the dataset shows
 * below comes from the dataset lifecycle, at the start, on failure, on retry and on commit.
 */
let next: 'fail' | 'hold' = 'fail';
let release: (() => void) | null = null;

const standInCreation: JobDefinition = {
  type: 'DATASET_CREATION',
  async handler(ctx) {
    if (next === 'fail') throw new Error('stand-in creation failed');
    await new Promise<void>((resolve) => (release = resolve));
    await ctx.commit(async () => undefined, 'stand-in created');
  },
};

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer({ jobs: [standInCreation] });
  owner = await server.createUser();
});
afterAll(() => server?.close());

const dataset = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body;

async function uploadedTransaction(datasetId: string): Promise<number> {
  const transId = await openTransaction(server, owner, datasetId);
  expect((await upload(server, owner, datasetId, transId, [photo('dog.jpg')])).status).toBe(202);
  return transId;
}

describe('a creation moves its dataset through the lifecycle table', () => {
  it('INDEXING at the start, ERROR with the reason on failure, INDEXING again on retry, one creation at a time, READY on commit', async () => {
    const datasetId = await newDataset(server, owner, 'lifecycle');
    expect(await dataset(datasetId)).toMatchObject({ status_new: 'INDEXING', fatal_error_msg: null });

    const started = await processFiles(server, owner, datasetId, await uploadedTransaction(datasetId));
    expect(started.status).toBe(202);
    const taskId = started.body.task_id as string;
    await waitForTask(server, owner, datasetId, taskId, hasStatus('FAILED'), 'failure');
    expect(await waitForDataset(server, owner, datasetId, ['ERROR'])).toMatchObject({ status_new: 'ERROR', fatal_error_msg: 'stand-in creation failed' });

    next = 'hold';
    const retried = await server.api(owner.token, 'POST', `/api/v1/tasks/${taskId}/retry`);
    expect(retried).toMatchObject({ status: 200, body: { task_id: taskId, status: 'INITIALIZING', dataset_status: 'INDEXING' } });
    expect(await dataset(datasetId)).toMatchObject({ status_new: 'INDEXING', fatal_error_msg: null });

    const second = await processFiles(server, owner, datasetId, await uploadedTransaction(datasetId));
    expect(second).toMatchObject({ status: 409, body: { detail: 'A DATASET_CREATION task is already running on this dataset' } });

    await waitFor(async () => release ?? undefined, 15_000, 'the stand-in holding');
    release!();
    await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion');
    expect(await dataset(datasetId)).toMatchObject({ status_new: 'READY', fatal_error_msg: null });
  });
});
