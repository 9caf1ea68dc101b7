import { sql } from 'kysely';
import type { TaskStatus, TaskType } from '../../src/core/tasks.js';
import type { TestServer, TestUser } from './server.js';
import { waitFor } from './server.js';

/** Starts a task the way services do (row and job in one transaction); tests have no production route for it yet. */
export function startTask(server: TestServer, user: TestUser, datasetId: string, config: Record<string, unknown> = {}, type: TaskType = 'DATASET_CREATION') {
  const { db } = server.loupe.container.database;
  return db.transaction().execute((trx) => server.loupe.container.repos.tasks.create(trx, { datasetId, type, createdBy: user.user_id, config }));
}

export async function newDataset(server: TestServer, user: TestUser, name = 'dataset'): Promise<string> {
  const res = await server.api(user.token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=${encodeURIComponent(name)}`);
  if (res.status !== 200) throw new Error(`new_dataset failed: ${res.status} ${res.text}`);
  return res.body.dataset_id as string;
}

export async function getTask(server: TestServer, user: TestUser, datasetId: string, taskId: string) {
  const res = await server.api(user.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&page_size=50`);
  return (res.body.tasks as Array<{ task_id: string } & Record<string, any>>).find((t) => t.task_id === taskId);
}

export function waitForTask(
  server: TestServer,
  user: TestUser,
  datasetId: string,
  taskId: string,
  until: (task: Record<string, any>) => boolean,
  what = 'task state',
  timeoutMs = 15_000,
) {
  return waitFor(async () => {
    const task = await getTask(server, user, datasetId, taskId);
    return task && until(task) ? task : undefined;
  }, timeoutMs, what);
}

export const hasStatus = (status: TaskStatus) => (task: Record<string, any>) => task.status === status;

/** Waits until the queue holds no job for the task: its handler has returned (or never ran). */
export function waitForJobGone(server: TestServer, taskId: string, timeout = 15_000) {
  const { db } = server.loupe.container.database;
  return waitFor(
    async () => ((await sql`select 1 from graphile_worker.jobs where key = ${taskId}`.execute(db)).rows.length === 0 ? true : undefined),
    { timeout, what: `the job of task ${taskId} to end` },
  );
}
