import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/adapters/db/database.js';
import { KeyBox, loadServerKey } from '../../src/adapters/secrets/key-box.js';
import { AuthRepo } from '../../src/modules/auth/auth.repo.js';
import { AuthService, signClientToken } from '../../src/modules/auth/auth.service.js';
import { TasksRepo } from '../../src/modules/tasks/tasks.repo.js';
import { call, seededDataDir, uniqueEmail, waitFor } from '../support/server.js';

const dataDir = seededDataDir();
let child: ChildProcess | null = null;
let url = '';
let side: DatabaseHandle;
let token = '';
let userId = '';
let datasetId = '';
/** The running child's log lines (it logs JSON at info to stdout, beside the line with its address). */
let childLogs: Array<{ level: number; msg: string }> = [];

/** Starts the server as a separate process on the shared DATA_DIR and waits for its address. */
async function startChild(): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/child-server.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DB_SHARED_BUFFERS_MB: '192' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  const logs: Array<{ level: number; msg: string }> = [];
  childLogs = logs;
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines.filter((l) => l.startsWith('{'))) {
        const parsed = JSON.parse(line) as { url?: string; level: number; msg: string };
        if (parsed.url && parsed.level === undefined) resolve(parsed.url);
        else logs.push(parsed);
      }
    });
    proc.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

function stopChild(signal: NodeJS.Signals): Promise<number | null> {
  const proc = child!;
  child = null;
  return new Promise((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.kill(signal);
  });
}

const api = (method: string, route: string) => call(url, token, method, route);

async function taskRow(taskId: string) {
  return side.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
}

function startTask(config: Record<string, unknown>) {
  return side.db.transaction().execute((trx) =>
    new TasksRepo(side.db).create(trx, { datasetId, type: 'DATASET_CREATION', createdBy: userId, config }),
  );
}

const waitForStatus = (taskId: string, status: string, timeoutMs = 20_000) =>
  waitFor(async () => {
    const res = await api('GET', `/api/v1/tasks?dataset_id=${datasetId}&page_size=50`);
    const task = (res.body.tasks as Array<Record<string, any>>).find((t) => t.task_id === taskId);
    return task?.status === status ? task : undefined;
  }, timeoutMs, `task ${status}`);

beforeAll(async () => {
  await startChild();
  // The CLI's path: a second process on the same DATA_DIR shares the running embedded database.
  side = await openDatabase({ databaseUrl: null, dataDir, owner: 'cli' }, pino({ level: 'silent' }));
  const auth = new AuthService(new AuthRepo(side.db), new KeyBox(loadServerKey(null, dataDir)), { tokenMaxLifetimeSeconds: 3600, sessionLifetimeSeconds: 3600 });
  const issued = await auth.createUser(uniqueEmail('restart'));
  userId = issued.user_id;
  token = await signClientToken(issued.api_key, issued.api_secret, 1800);
  datasetId = (await api('GET', '/api/v1/ingestion/new_dataset?dataset_name=restart')).body.dataset_id;
});

afterAll(async () => {
  await side?.close();
  if (child) await stopChild('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('restart recovery', () => {
  it('runs the embedded database with the shared_buffers the server was given', async () => {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(side.db);
    expect(rows[0]!.shared_buffers).toBe('192MB');
  });

  it('resumes a task whose server was killed mid-run', async () => {
    const taskId = await startTask({ steps: 8, stepMs: 250 });
    await waitFor(async () => ((await taskRow(taskId)).progress_percentage ?? 0) > 0 || undefined, 15_000, 'progress');
    expect(await stopChild('SIGKILL')).toBeNull();
    expect((await taskRow(taskId)).status).toBe('RUNNING');

    await startChild();
    const done = await waitForStatus(taskId, 'COMPLETED');
    expect(done).toMatchObject({ progress_percentage: 100, status_message: 'Processed 8 steps', error_message: null });
  });

  it('fails a killed task that cannot resume with a clear message, and it can be retried', async () => {
    const taskId = await startTask({ steps: 8, stepMs: 250 });
    await waitFor(async () => ((await taskRow(taskId)).progress_percentage ?? 0) > 0 || undefined, 15_000, 'progress');
    await stopChild('SIGKILL');
    // The job is gone (as when it has used up its attempts): nothing can resume the task.
    await sql`delete from graphile_worker._private_jobs where key = ${taskId}`.execute(side.db);

    await startChild();
    const failed = await waitForStatus(taskId, 'FAILED');
    expect(failed.error_message).toBe('The worker running this task stopped unexpectedly and the task cannot resume; retry it');
    expect((await api('POST', `/api/v1/tasks/${taskId}/retry`)).status).toBe(200);
    await waitForStatus(taskId, 'COMPLETED');
  });

  it('on SIGTERM lets the running task stop at a checkpoint and resumes it after the restart', async () => {
    const taskId = await startTask({ steps: 8, stepMs: 250 });
    await waitFor(async () => ((await taskRow(taskId)).progress_percentage ?? 0) > 0 || undefined, 15_000, 'progress');
    const logs = childLogs;
    expect(await stopChild('SIGTERM')).toBe(0);
    // An expected shutdown logs no errors: the stopped task is an info line, closing connections are not failures.
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
    expect(logs.map((l) => l.msg)).toContain('job stopped by shutdown; it resumes on the next start');
    // The server stopped its database on exit; a CLI-style handle starts it alone to look.
    const offline = await openDatabase({ databaseUrl: null, dataDir, owner: 'cli' }, pino({ level: 'silent' }));
    const interrupted = await offline.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    await offline.close();
    expect(interrupted.status).toBe('RUNNING');
    expect(interrupted.status_message).toBe('Interrupted by a worker shutdown; resumes when a worker starts');

    await startChild();
    await waitForStatus(taskId, 'COMPLETED');
  });
});
