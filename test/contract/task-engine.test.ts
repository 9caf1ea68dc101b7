import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestContext } from '../support/context.js';
import type { TestServer, TestUser } from '../support/server.js';
import { hasStatus, startTask, waitForJobGone, waitForTask } from '../support/tasks.js';
import { testCreationJob } from '../support/test-jobs.js';

const ctx = useTestContext({ jobs: [testCreationJob] });
let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let datasetId: string;

beforeAll(async () => {
  server = ctx.server;
  [owner, viewer, stranger] = await Promise.all([ctx.newUser(), ctx.newUser(), ctx.newUser()]);
});
// Each test has a dataset of its own, so none sees the tasks another left behind.
beforeEach(async () => {
  const dataset = await ctx.newDataset(owner, { name: 'engine' });
  datasetId = dataset.id;
  await ctx.share(dataset, viewer);
});

const abort = (user: TestUser, taskId: string) => server.api(user.token, 'POST', `/api/v1/tasks/${taskId}/abort`);
const retry = (user: TestUser, taskId: string) => server.api(user.token, 'POST', `/api/v1/tasks/${taskId}/retry`);

describe('a task runs INITIALIZING → RUNNING → COMPLETED with progress', () => {
  it('reports progress while running and 100 at the end', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 10, stepMs: 150 });
    const running = await waitForTask(server, owner, datasetId, taskId, (t) => t.status === 'RUNNING' && t.progress_percentage > 0, 'progress');
    expect(running).toMatchObject({
      task_id: taskId,
      dataset_id: datasetId,
      dataset_name: 'engine',
      dataset_status: 'INDEXING',
      created_by: owner.email,
      task_type: 'DATASET_CREATION',
      status: 'RUNNING',
      status_message: expect.stringMatching(/^step \d+ of 10$/),
      error_message: null,
      end_time: null,
    });
    expect(running.progress_percentage).toBeLessThan(100);

    const done = await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion');
    expect(done).toMatchObject({ progress_percentage: 100, status_message: 'Processed 10 steps', error_message: null });
    expect(Date.parse(done.end_time)).toBeGreaterThanOrEqual(Date.parse(done.start_time));
  });

  it('ends FAILED with the error message when the handler throws', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 5, stepMs: 20, failAtStep: 2 });
    const failed = await waitForTask(server, owner, datasetId, taskId, hasStatus('FAILED'), 'failure');
    expect(failed).toMatchObject({ error_message: 'test job failed at step 2', end_time: expect.any(String) });
  });
});

describe('POST /api/v1/tasks/{task_id}/abort', () => {
  it('aborts a running DATASET_CREATION task, and the handler stops at its next checkpoint', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 100, stepMs: 100 });
    await waitForTask(server, owner, datasetId, taskId, (t) => t.progress_percentage > 0, 'progress');
    const res = await abort(owner, taskId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ task_id: taskId, status: 'ABORTED', end_time: expect.any(String) });

    const progressAtAbort = res.body.progress_percentage as number;
    await waitForJobGone(server, taskId);
    const later = await waitForTask(server, owner, datasetId, taskId, () => true);
    expect(later.status).toBe('ABORTED');
    expect(later.progress_percentage).toBeLessThanOrEqual(progressAtAbort + 1);
  });

  it('409 for COMPLETED, FAILED and ABORTED tasks', async () => {
    const completed = await startTask(server, owner, datasetId, { steps: 1, stepMs: 1 });
    await waitForTask(server, owner, datasetId, completed, hasStatus('COMPLETED'));
    expect(await abort(owner, completed)).toMatchObject({ status: 409, body: { detail: 'Task cannot be aborted: it is already COMPLETED' } });

    const failed = await startTask(server, owner, datasetId, { steps: 2, stepMs: 1, failAtStep: 1 });
    await waitForTask(server, owner, datasetId, failed, hasStatus('FAILED'));
    expect((await abort(owner, failed)).status).toBe(409);

    const aborted = await startTask(server, owner, datasetId, { steps: 100, stepMs: 100 });
    expect((await abort(owner, aborted)).status).toBe(200);
    expect(await abort(owner, aborted)).toMatchObject({ status: 409, body: { detail: 'Task cannot be aborted: it is already ABORTED' } });
  });

  it('409 in the final commit phase, and the task still completes', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 1, stepMs: 1, commitMs: 1500 });
    await waitForTask(server, owner, datasetId, taskId, (t) => t.status_message === 'Committing', 'commit phase');
    expect(await abort(owner, taskId)).toMatchObject({ status: 409, body: { detail: 'Task cannot be aborted: it is in its final commit phase' } });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion');
  });

  it('409 for task types other than DATASET_CREATION', async () => {
    // No REINDEX handler is registered in this server, so the task waits in INITIALIZING.
    const taskId = await startTask(server, owner, datasetId, {}, 'REINDEX');
    expect(await abort(owner, taskId)).toMatchObject({ status: 409, body: { detail: 'Task cannot be aborted: REINDEX tasks cannot be aborted' } });
  });

  it('404 for an unknown task or one on a dataset the caller cannot see; 403 for a viewer', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 100, stepMs: 100 });
    expect(await abort(owner, randomUUID())).toMatchObject({ status: 404, body: { detail: 'Task not found' } });
    expect(await abort(stranger, taskId)).toMatchObject({ status: 404, body: { detail: 'Task not found' } });
    expect((await abort(viewer, taskId)).status).toBe(403);
    expect((await abort(owner, 'not-a-uuid')).status).toBe(422);
    expect((await abort(owner, taskId)).status).toBe(200);
  });
});

describe('POST /api/v1/tasks/{task_id}/retry', () => {
  it('re-runs an ABORTED task with its original configuration: INITIALIZING, then COMPLETED', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 4, stepMs: 300 });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('RUNNING'));
    expect((await abort(owner, taskId)).status).toBe(200);
    await waitForJobGone(server, taskId);

    const res = await retry(owner, taskId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ task_id: taskId, status: 'INITIALIZING', progress_percentage: null, error_message: null, end_time: null });
    const done = await waitForTask(server, owner, datasetId, taskId, hasStatus('COMPLETED'), 'completion after retry');
    expect(done.status_message).toBe('Processed 4 steps');
  });

  it('re-runs a FAILED task', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 3, stepMs: 10, failAtStep: 3 });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('FAILED'));
    expect((await retry(owner, taskId)).body.status).toBe('INITIALIZING');
    const again = await waitForTask(server, owner, datasetId, taskId, hasStatus('FAILED'), 'the same failure again');
    expect(again.error_message).toBe('test job failed at step 3');
  });

  it('400 for tasks that are running, completed, or of another type', async () => {
    const running = await startTask(server, owner, datasetId, { steps: 100, stepMs: 100 });
    await waitForTask(server, owner, datasetId, running, hasStatus('RUNNING'));
    expect(await retry(owner, running)).toMatchObject({
      status: 400,
      body: { detail: 'Task cannot be retried: only FAILED or ABORTED tasks can be retried, this one is RUNNING' },
    });
    await abort(owner, running);

    const completed = await startTask(server, owner, datasetId, { steps: 1, stepMs: 1 });
    await waitForTask(server, owner, datasetId, completed, hasStatus('COMPLETED'));
    expect((await retry(owner, completed)).status).toBe(400);

    const reindex = await startTask(server, owner, datasetId, {}, 'REINDEX');
    expect(await retry(owner, reindex)).toMatchObject({ status: 400, body: { detail: 'Task cannot be retried: REINDEX tasks cannot be retried' } });
  });

  it('404 for unknown or invisible tasks', async () => {
    const taskId = await startTask(server, owner, datasetId, { steps: 1, stepMs: 1, failAtStep: 1 });
    await waitForTask(server, owner, datasetId, taskId, hasStatus('FAILED'));
    expect((await retry(owner, randomUUID())).status).toBe(404);
    expect((await retry(stranger, taskId)).status).toBe(404);
  });
});

describe('totals', () => {
  it('stay exact through every transition (counters kept by trigger)', async () => {
    const completed = await startTask(server, owner, datasetId, { steps: 1, stepMs: 1 });
    const failed = await startTask(server, owner, datasetId, { steps: 2, stepMs: 1, failAtStep: 1 });
    const aborted = await startTask(server, owner, datasetId, { steps: 100, stepMs: 100 });
    const retried = await startTask(server, owner, datasetId, { steps: 3, stepMs: 10, failAtStep: 3 });
    const reindex = await startTask(server, owner, datasetId, {}, 'REINDEX');
    expect((await abort(owner, aborted)).status).toBe(200);
    await waitForTask(server, owner, datasetId, completed, hasStatus('COMPLETED'));
    await waitForTask(server, owner, datasetId, failed, hasStatus('FAILED'));
    await waitForTask(server, owner, datasetId, retried, hasStatus('FAILED'));
    expect((await retry(owner, retried)).status).toBe(200);
    await waitForTask(server, owner, datasetId, retried, hasStatus('FAILED'), 'the same failure again');
    await waitForJobGone(server, aborted);
    // The real REINDEX job runs too: counted only once it has ended, or it could end between the count and the answer.
    await waitForTask(server, owner, datasetId, reindex, (t) => t.status === 'COMPLETED' || t.status === 'FAILED', 'the reindex ended');
    await waitForJobGone(server, reindex);

    const rows = await server.loupe.container.database.db
      .selectFrom('tasks')
      .select(['status'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dataset_id', '=', datasetId)
      .groupBy('status')
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const { status, n } of rows) {
      const res = await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&task_status=${status}`);
      expect(res.body.total, status).toBe(n);
    }
  });
});
