import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../adapters/db/database.js';
import { type QueueHandler, QueueInspector, type QueueRunner, addJob, startQueueRunner } from '../adapters/queue/graphile-queue.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { TasksRepo } from '../modules/tasks/tasks.repo.js';
import type { RegisteredJob } from './registry.js';
import { WorkerShutdown, runTask } from './run-task.js';
import type { SweepHealth } from './sweep-health.js';
import type { SweepName } from './sweeps.js';
import { WorkerRepo } from './worker.repo.js';

export interface WorkerOptions {
  pool: pg.Pool;
  db: Db;
  tasks: TasksRepo;
  lifecycle: Pick<DatasetLifecycle, 'finish' | 'stop'>;
  /** The checked registry: every job this worker runs, by name. */
  jobs: Map<string, RegisteredJob>;
  log: Logger;
  concurrency: number;
  /** True when this process owns the database alone (embedded mode): every other worker is dead. */
  exclusive: boolean;
  /** Where each sweep's runs and failures are counted. */
  sweepHealth: SweepHealth;
  heartbeatMs?: number;
  staleAfterSeconds?: number;
  recoveryIntervalMs?: number;
  abortPollMs?: number;
  /** How long after one pass of a sweep ends the next one starts. */
  sweepIntervalMs?: number;
}

export interface Worker {
  instanceId: string;
  /** Signals running tasks, waits for them to stop, then leaves. */
  stop(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { tasks, lifecycle, log } = options;
  const instanceId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleAfterSeconds = options.staleAfterSeconds ?? 30;
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const running = new Set<AbortController>();

  const liveness = new WorkerRepo(options.db);
  const queue = new QueueInspector(options.db);
  await liveness.heartbeat(instanceId);
  if (options.exclusive) await queue.forceUnlockWorkers(await queue.lockHolders());
  await recover(liveness, queue, tasks, lifecycle, instanceId, staleAfterSeconds, options.exclusive, log);

  /** Runs `work` with a signal that fires on shutdown. */
  const withSignal = async (work: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    running.add(controller);
    try {
      await work(controller.signal);
    } catch (err) {
      // Whatever a stopped stream threw, a shutdown is reported as the shutdown (logged as such, not as a failure).
      throw controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      running.delete(controller);
    }
  };
  const scheduleSweep = (name: SweepName, replace: boolean) =>
    addJob(options.db, name, {}, { key: name, replace, runAt: new Date(Date.now() + sweepIntervalMs) });

  const runTaskDeps = { db: options.db, tasks, lifecycle, log, workerInstance: instanceId, abortPollMs: options.abortPollMs ?? 500, running };
  const jobHandlers: Record<string, QueueHandler> = {};
  const sweepHandlers: Record<string, QueueHandler> = {};
  for (const job of options.jobs.values()) {
    if (job.kind === 'task') {
      jobHandlers[job.name] = (payload, info) => runTask(runTaskDeps, job.handler, (payload as { taskId: string }).taskId, info.lockedBy);
    } else if (job.kind === 'payload') {
      jobHandlers[job.name] = (payload) => withSignal((signal) => job.handler(payload, signal));
    } else {
      // A failed pass is counted and logged, never retried early: the next pass is already scheduled.
      sweepHandlers[job.name] = () =>
        withSignal(async (signal) => {
          try {
            await job.handler(signal);
            options.sweepHealth.record(job.name, false);
          } catch (err) {
            if (signal.aborted) return;
            options.sweepHealth.record(job.name, true);
            log.error({ err, sweep: job.name }, 'sweep failed');
          } finally {
            await scheduleSweep(job.name, true);
          }
        });
    }
  }

  const isStop = (err: unknown) => err instanceof WorkerShutdown;
  const runners: QueueRunner[] = [];
  const stopRunners = () => Promise.all(runners.map((r) => r.stop()));
  try {
    runners.push(await startQueueRunner({ pool: options.pool, concurrency: options.concurrency, handlers: jobHandlers, log, isStop }));
    // Sweeps have a lane of their own, so a long task never holds them back nor they a task.
    runners.push(
      await startQueueRunner({ pool: options.pool, concurrency: 1, handlers: sweepHandlers, log, isStop, pollIntervalMs: Math.min(1_000, sweepIntervalMs) }),
    );
    // A sweep already waiting keeps its time, so restarts do not keep putting it off.
    for (const name of Object.keys(sweepHandlers) as SweepName[]) await scheduleSweep(name, false);
  } catch (err) {
    await stopRunners();
    throw err;
  }

  const timers = [
    setInterval(() => liveness.heartbeat(instanceId).catch((err: unknown) => log.warn({ err }, 'worker heartbeat failed')), heartbeatMs),
    // Only embedded mode may treat other instances as dead at once; scale-out waits for stale heartbeats.
    setInterval(
      () => recover(liveness, queue, tasks, lifecycle, instanceId, staleAfterSeconds, false, log).catch((err: unknown) => log.warn({ err }, 'task recovery failed')),
      options.recoveryIntervalMs ?? 15_000,
    ),
  ];
  log.info({ instanceId, concurrency: options.concurrency, jobs: [...options.jobs.keys()] }, 'worker started');

  return {
    instanceId,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      for (const controller of running) controller.abort(new WorkerShutdown());
      await stopRunners();
      await liveness.removeInstance(instanceId);
    },
  };
}

/** No task stays RUNNING after its worker died: it is handed back to the queue, or failed when it cannot resume. */
async function recover(
  liveness: WorkerRepo,
  queue: QueueInspector,
  tasks: TasksRepo,
  lifecycle: Pick<DatasetLifecycle, 'stop'>,
  selfId: string,
  staleAfterSeconds: number,
  exclusive: boolean,
  log: Logger,
): Promise<void> {
  const candidates = await liveness.findOrphanCandidates(selfId, staleAfterSeconds, exclusive);
  if (candidates.length === 0) return;
  const jobs = await queue.jobsByKey(candidates.map((c) => c.id));
  // A queued task is orphaned only when its job is gone; a claimed one whenever its worker is.
  const orphans = candidates.filter((c) => c.claimed || !jobs.has(c.id));
  if (orphans.length === 0) return;
  await queue.forceUnlockWorkers([...new Set(orphans.flatMap((o) => (o.job_locked_by ? [o.job_locked_by] : [])))]);
  for (const orphan of orphans) {
    const job = jobs.get(orphan.id);
    if (job && job.attempts < job.maxAttempts) {
      log.warn({ taskId: orphan.id }, 'task interrupted by a stopped worker; queued to resume');
      await tasks.markInterrupted(orphan.id, 'Resuming after the worker running it stopped');
    } else {
      log.warn({ taskId: orphan.id, jobExists: job !== undefined }, 'task interrupted too often; failing it');
      const message = 'The worker running this task stopped unexpectedly and the task cannot resume; retry it';
      await tasks.fail(orphan.id, message, (trx, ended) => lifecycle.stop(trx, ended, message));
    }
  }
}
