import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Logger as GraphileLogger, type Runner, type TaskList, run, runMigrations } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../adapters/db/database.js';
import type { TaskType } from '../core/tasks.js';
import type { TasksRepo } from '../modules/tasks/tasks.repo.js';
import type { JobDefinition } from './registry.js';
import { WorkerShutdown, runTask } from './run-task.js';
import { WorkerRepo } from './worker.repo.js';

export interface WorkerOptions {
  pool: pg.Pool;
  db: Db;
  tasks: TasksRepo;
  jobs: Map<TaskType, JobDefinition>;
  log: Logger;
  concurrency: number;
  /** True when this process owns the database alone (embedded mode): every other worker is dead. */
  exclusive: boolean;
  heartbeatMs?: number;
  staleAfterSeconds?: number;
  recoveryIntervalMs?: number;
  abortPollMs?: number;
  /** Queue jobs that are not Task Manager tasks (exports), by job name: each gets the payload and a signal that fires on shutdown. */
  extraJobs?: Record<string, (payload: unknown, signal: AbortSignal) => Promise<void>>;
}

export interface Worker {
  instanceId: string;
  /** Signals running tasks, waits for them to stop, then leaves. */
  stop(): Promise<void>;
}

/** The queue's own tables; every role installs them because the API enqueues jobs in its transactions. */
export function installQueueSchema(pool: pg.Pool): Promise<void> {
  return runMigrations({ pgPool: pool, logger: silentGraphileLogger });
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { tasks, log } = options;
  const instanceId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleAfterSeconds = options.staleAfterSeconds ?? 30;
  const running = new Set<AbortController>();

  const liveness = new WorkerRepo(options.db);
  await liveness.heartbeat(instanceId);
  if (options.exclusive) await liveness.forceUnlockJobs(await liveness.jobLockHolders());
  await recover(liveness, tasks, instanceId, staleAfterSeconds, options.exclusive, log);

  const deps = { db: options.db, tasks, log, workerInstance: instanceId, abortPollMs: options.abortPollMs ?? 500, running };
  const taskList: TaskList = {};
  for (const [type, def] of options.jobs) {
    taskList[type] = async (payload, helpers) => {
      const { taskId } = payload as { taskId: string };
      await runTask(deps, def.handler, taskId, helpers.job.locked_by);
    };
  }
  for (const [name, handler] of Object.entries(options.extraJobs ?? {})) {
    taskList[name] = async (payload) => {
      const controller = new AbortController();
      running.add(controller);
      try {
        await handler(payload, controller.signal);
      } catch (err) {
        // Whatever a stopped stream threw, a shutdown is reported as the shutdown (logged as such, not as a failure).
        throw controller.signal.aborted ? controller.signal.reason : err;
      } finally {
        running.delete(controller);
      }
    };
  }
  const runner: Runner = await run({
    pgPool: options.pool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 1_000,
    taskList,
    logger: graphileLogger(log),
  });

  const timers = [
    setInterval(() => liveness.heartbeat(instanceId).catch((err: unknown) => log.warn({ err }, 'worker heartbeat failed')), heartbeatMs),
    // Only embedded mode may treat other instances as dead at once; scale-out waits for stale heartbeats.
    setInterval(
      () => recover(liveness, tasks, instanceId, staleAfterSeconds, false, log).catch((err: unknown) => log.warn({ err }, 'task recovery failed')),
      options.recoveryIntervalMs ?? 15_000,
    ),
  ];
  log.info({ instanceId, concurrency: options.concurrency, jobs: [...options.jobs.keys()] }, 'worker started');

  return {
    instanceId,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      for (const controller of running) controller.abort(new WorkerShutdown());
      await runner.stop();
      await liveness.removeInstance(instanceId);
    },
  };
}

/** No task stays RUNNING after its worker died: it is handed back to the queue, or failed when it cannot resume. */
async function recover(
  liveness: WorkerRepo,
  tasks: TasksRepo,
  selfId: string,
  staleAfterSeconds: number,
  exclusive: boolean,
  log: Logger,
): Promise<void> {
  const orphans = await liveness.findOrphans(selfId, staleAfterSeconds, exclusive);
  if (orphans.length === 0) return;
  await liveness.forceUnlockJobs([...new Set(orphans.flatMap((o) => (o.job_locked_by ? [o.job_locked_by] : [])))]);
  for (const orphan of orphans) {
    if (orphan.job_runnable) {
      log.warn({ taskId: orphan.id }, 'task interrupted by a stopped worker; queued to resume');
      await tasks.markInterrupted(orphan.id, 'Resuming after the worker running it stopped');
    } else {
      log.warn({ taskId: orphan.id, jobExists: orphan.job_exists }, 'task interrupted too often; failing it');
      await tasks.fail(orphan.id, 'The worker running this task stopped unexpectedly and the task cannot resume; retry it');
    }
  }
}

const silentGraphileLogger = new GraphileLogger(() => () => {});

function graphileLogger(log: Logger): GraphileLogger {
  const child = log.child({ component: 'graphile-worker' });
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { ...scope, ...meta };
    // A task stopped by Ctrl-C / SIGTERM resumes on the next start: graphile reports it as a failure, it is not one.
    if (meta?.error instanceof WorkerShutdown) {
      const job = meta.job as { id?: string; task_identifier?: string } | undefined;
      child.info({ ...scope, job: { id: job?.id, task_identifier: job?.task_identifier } }, 'task stopped by shutdown; it resumes on the next start');
    } else if (level === 'error') child.error(fields, message);
    else if (level === 'warning') child.warn(fields, message);
    else child.debug(fields, message);
  });
}
