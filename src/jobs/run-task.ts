import type { Logger } from 'pino';
import type { Db } from '../adapters/db/database.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { TasksRepo } from '../modules/tasks/tasks.repo.js';
import type { TaskContext, TaskHandler } from './registry.js';

/** The reason a task's signal fires when a user aborted it. */
export class TaskAborted extends Error {
  constructor() {
    super('Task aborted by user');
    this.name = 'TaskAborted';
  }
}

/** The reason a task's signal fires when its worker shuts down: the task resumes on the next start. */
export class WorkerShutdown extends Error {
  constructor() {
    super('Worker shutting down');
    this.name = 'WorkerShutdown';
  }
}

export interface RunTaskDeps {
  db: Db;
  tasks: TasksRepo;
  /** Moves the task's dataset on commit and on failure. */
  lifecycle: Pick<DatasetLifecycle, 'finish' | 'stop'>;
  log: Logger;
  workerInstance: string;
  abortPollMs: number;
  /** Running tasks, so shutdown can signal every one of them. */
  running: Set<AbortController>;
}

/**
 * Runs one handler for one task row. Handler failures end the task FAILED (no silent job retry);
 * a shutdown leaves the task active and rethrows so the queue runs it again after the restart.
 */
export async function runTask(deps: RunTaskDeps, handler: TaskHandler, taskId: string, jobLockedBy: string | null): Promise<void> {
  const { tasks, log } = deps;
  const task = await tasks.markRunning(taskId, deps.workerInstance, jobLockedBy);
  if (!task) return;

  const controller = new AbortController();
  deps.running.add(controller);
  const poll = setInterval(() => {
    tasks
      .isLiveRun(taskId, task.attempt)
      .then((live) => !live && controller.abort(new TaskAborted()))
      .catch((err: unknown) => log.warn({ err, taskId }, 'abort poll failed'));
  }, deps.abortPollMs);

  let committed = false;
  const ctx: TaskContext = {
    taskId,
    attempt: task.attempt,
    taskType: task.task_type,
    datasetId: task.dataset_id,
    createdBy: task.created_by,
    config: task.config,
    signal: controller.signal,
    log: log.child({ taskId, taskType: task.task_type }),
    async progress(percentage, message) {
      controller.signal.throwIfAborted();
      const clamped = percentage === null ? null : Math.max(0, Math.min(100, Math.round(percentage)));
      if (!(await tasks.progress(taskId, task.attempt, clamped, message))) controller.abort(new TaskAborted());
      controller.signal.throwIfAborted();
    },
    async commit(work, message = 'Completed') {
      controller.signal.throwIfAborted();
      if (!(await tasks.enterCommitPhase(taskId, task.attempt))) controller.abort(new TaskAborted());
      controller.signal.throwIfAborted();
      const result = await deps.db.transaction().execute(async (trx) => {
        const value = await work(trx);
        const text = typeof message === 'function' ? message(value) : message;
        if (!(await tasks.complete(trx, taskId, task.attempt, text))) throw new TaskAborted();
        await deps.lifecycle.finish(trx, task);
        return value;
      });
      committed = true;
      return result;
    },
  };

  try {
    await handler(ctx);
    if (!committed) await ctx.commit(async () => undefined);
  } catch (err) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : err;
    if (reason instanceof WorkerShutdown) {
      await tasks.markInterrupted(taskId, 'Interrupted by a worker shutdown; resumes when a worker starts', task.attempt);
      throw reason;
    }
    if (reason instanceof TaskAborted || !(await tasks.isLiveRun(taskId, task.attempt))) {
      ctx.log.info('task aborted');
      return;
    }
    ctx.log.error({ err }, 'task failed');
    const message = err instanceof Error ? err.message : String(err);
    await tasks.fail(taskId, message, (trx, ended) => deps.lifecycle.stop(trx, ended, message), task.attempt);
  } finally {
    clearInterval(poll);
    deps.running.delete(controller);
  }
}
