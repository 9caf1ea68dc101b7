import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { addJob } from '../../adapters/queue/graphile-queue.js';
import type { TaskRow } from '../../adapters/db/schema.js';
import { ACTIVE_STATUSES, type TaskStatus, type TaskType } from '../../core/tasks.js';

export interface NewTask {
  datasetId: string;
  type: TaskType;
  createdBy: string;
  config?: Record<string, unknown>;
  statusMessage?: string;
}

/** What a task's end needs to know to move its dataset. */
export interface EndedTask {
  dataset_id: string;
  task_type: TaskType;
  config: Record<string, unknown>;
}

/** The dataset side of a task's stop or retry (the dataset lifecycle's), run in the same transaction as the task's own change. */
export type DatasetEffect = (trx: Db, task: EndedTask) => Promise<void>;

/** The dataset lifecycle's steps the task engine calls (DatasetLifecycle, injected: the lifecycle builds on this area). */
export interface TaskEndings {
  stop(trx: Db, task: EndedTask, reason: string): Promise<void>;
  retry(trx: Db, task: EndedTask): Promise<void>;
}

/** Job attempts cover restarts and crashes only: a handler's own failure ends the task as FAILED at once. */
export const JOB_MAX_ATTEMPTS = 10;

export class TasksRepo {
  constructor(private readonly db: Db) {}

  /** Inserts the task row and its job in the caller's transaction, so neither exists without the other. */
  async create(trx: Db, task: NewTask): Promise<string> {
    const { id } = await trx
      .insertInto('tasks')
      .values({
        dataset_id: task.datasetId,
        task_type: task.type,
        status: 'INITIALIZING',
        status_message: task.statusMessage ?? 'Queued',
        progress_percentage: null,
        error_message: null,
        created_by: task.createdBy,
        config: JSON.stringify(task.config ?? {}),
        end_time: null,
        worker_instance: null,
        job_locked_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.enqueue(trx, id, task.type);
    return id;
  }

  private async enqueue(trx: Db, taskId: string, type: TaskType): Promise<void> {
    await addJob(trx, type, { taskId }, { key: taskId, maxAttempts: JOB_MAX_ATTEMPTS, replace: true });
  }

  async totals(): Promise<Array<{ task_type: TaskType; status: TaskStatus; n: number }>> {
    return this.db
      .selectFrom('task_counts')
      .select(['task_type', 'status'])
      .select(sql<number>`sum(n)::int8`.as('n'))
      .groupBy(['task_type', 'status'])
      .execute();
  }

  async find(taskId: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  }

  /** Abort wins only while the task is still active and not committing; the check and the write are one statement. */
  async abort(taskId: string, onStop: DatasetEffect): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('tasks')
        .set({ status: 'ABORTED', status_message: 'Aborted by user', end_time: sql`now()` })
        .where('id', '=', taskId)
        .where('status', 'in', ACTIVE_STATUSES)
        .where('phase', '=', 'work')
        .returning(['dataset_id', 'task_type', 'config'])
        .executeTakeFirst();
      if (row) await onStop(trx, row);
      return row !== undefined;
    });
  }

  /**
   * Puts a FAILED or ABORTED task back to INITIALIZING with its original config and queues it again; `answer` reads
   * what to return in the same transaction (a worker may take the task the moment it commits). Null when the task
   * was no longer FAILED or ABORTED.
   */
  async retry<T>(taskId: string, onRetry: DatasetEffect, answer: (trx: Db) => Promise<T>): Promise<T | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('tasks')
        .set({
          status: 'INITIALIZING',
          status_message: 'Queued for retry',
          progress_percentage: null,
          error_message: null,
          end_time: null,
          phase: 'work',
          worker_instance: null,
          job_locked_by: null,
          attempt: sql`attempt + 1`,
        })
        .where('id', '=', taskId)
        .where('status', 'in', ['FAILED', 'ABORTED'])
        .returning(['dataset_id', 'task_type', 'config'])
        .executeTakeFirst();
      if (!row) return null;
      await onRetry(trx, row);
      await this.enqueue(trx, taskId, row.task_type);
      return answer(trx);
    });
  }

  /** Claims the task for a worker run; returns undefined when it is no longer active (aborted, finished). */
  async markRunning(taskId: string, workerInstance: string, jobLockedBy: string | null): Promise<TaskRow | undefined> {
    return this.db
      .updateTable('tasks')
      .set({ status: 'RUNNING', status_message: 'Running', phase: 'work', worker_instance: workerInstance, job_locked_by: jobLockedBy, attempt: sql`attempt + 1` })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES)
      .returningAll()
      .executeTakeFirst();
  }

  /** Records progress; false means this run's task stopped being RUNNING (aborted, or retried into a new run). */
  async progress(taskId: string, attempt: number, percentage: number | null, message: string | undefined): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ progress_percentage: percentage, ...(message === undefined ? {} : { status_message: message }) })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    const row = await this.db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirst();
    return row?.status;
  }

  /** True while `attempt` is still the task's live run (not aborted, not superseded by a retry). */
  async isLiveRun(taskId: string, attempt: number): Promise<boolean> {
    const row = await this.db.selectFrom('tasks').select(['status', 'attempt']).where('id', '=', taskId).executeTakeFirst();
    return row !== undefined && row.attempt === attempt && row.status !== 'ABORTED';
  }

  /** From here on the task cannot be aborted; false when an abort got there first. */
  async enterCommitPhase(taskId: string, attempt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ phase: 'commit', status_message: 'Committing' })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async complete(trx: Db, taskId: string, attempt: number, message: string): Promise<boolean> {
    const result = await trx
      .updateTable('tasks')
      .set({ status: 'COMPLETED', status_message: message, progress_percentage: 100, end_time: sql`now()`, worker_instance: null })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Fails the task; with `attempt`, only while that run is still the task's live one. */
  async fail(taskId: string, errorMessage: string, onStop: DatasetEffect, attempt?: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable('tasks')
        .set({ status: 'FAILED', status_message: 'Failed', error_message: errorMessage, end_time: sql`now()`, worker_instance: null })
        .where('id', '=', taskId)
        .where('status', 'in', ACTIVE_STATUSES);
      if (attempt !== undefined) q = q.where('attempt', '=', attempt);
      const row = await q
        .returning(['dataset_id', 'task_type', 'config'])
        .executeTakeFirst();
      if (row) await onStop(trx, row);
    });
  }

  /** Left for the next worker run: the job stays queued and the handler resumes from stored state. */
  async markInterrupted(taskId: string, message: string, attempt?: number): Promise<void> {
    let q = this.db
      .updateTable('tasks')
      .set({ status_message: message, worker_instance: null, job_locked_by: null })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES);
    if (attempt !== undefined) q = q.where('attempt', '=', attempt);
    await q.execute();
  }
}
