import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { addJob } from '../../adapters/queue/graphile-queue.js';
import type { TaskRow } from '../../adapters/db/schema.js';
import type { DatasetStatus } from '../../core/dataset-status.js';
import {
  ACTIVE_STATUSES,
  DATASET_STATUS_ON_RETRY,
  DATASET_STATUS_ON_STOP,
  SOURCE_STATUS_ON_STOP,
  type StatusTarget,
  type TaskStatus,
  statusAfter,
  type TaskType,
} from '../../core/tasks.js';

export interface NewTask {
  datasetId: string;
  type: TaskType;
  createdBy: string;
  config?: Record<string, unknown>;
  statusMessage?: string;
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

  /** The type of an active task on the dataset (of `type` when given), or undefined when none runs. */
  async activeTaskType(trx: Db, datasetId: string, type?: TaskType): Promise<TaskType | undefined> {
    let q = trx.selectFrom('tasks').select('task_type').where('dataset_id', '=', datasetId).where('status', 'in', ACTIVE_STATUSES);
    if (type) q = q.where('task_type', '=', type);
    return (await q.executeTakeFirst())?.task_type;
  }

  /**
   * Types of the tasks running on the dataset, the clones and enrichments made from it included (they run
   * on the new dataset but block a restore of this one, and an enrichment every change): what the
   * operation guard decides on.
   */
  async runningTypes(trx: Db, datasetId: string): Promise<TaskType[]> {
    const rows = await sql<{ task_type: TaskType }>`
      select distinct task_type from tasks
      where status in ('INITIALIZING', 'RUNNING')
        and (dataset_id = ${datasetId}::uuid
          or (task_type in ('SNAPSHOT_CLONE', 'ENRICHMENT') and config ->> 'source_dataset_id' = ${datasetId}::text))`.execute(trx);
    return rows.rows.map((r) => r.task_type);
  }

  async find(taskId: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  }

  /** Abort wins only while the task is still active and not committing; the check and the write are one statement. */
  async abort(taskId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('tasks')
        .set({ status: 'ABORTED', status_message: 'Aborted by user', end_time: sql`now()` })
        .where('id', '=', taskId)
        .where('status', 'in', ACTIVE_STATUSES)
        .where('phase', '=', 'work')
        .returning(['dataset_id', 'task_type', 'config'])
        .executeTakeFirst();
      if (row) await this.applyDatasetRule(trx, row, DATASET_STATUS_ON_STOP, 'The task creating this dataset was aborted; retry it to resume');
      return row !== undefined;
    });
  }

  private async applyDatasetRule(
    trx: Db,
    task: { dataset_id: string; task_type: TaskType; config: Record<string, unknown> },
    rules: typeof DATASET_STATUS_ON_STOP,
    fatalErrorMsg: string | null,
  ): Promise<void> {
    const source = task.config.source_dataset_id;
    if (rules === DATASET_STATUS_ON_STOP && typeof source === 'string') {
      await this.applyRule(trx, source, SOURCE_STATUS_ON_STOP[task.task_type], task.config, null);
    }
    await this.applyRule(trx, task.dataset_id, rules[task.task_type], task.config, fatalErrorMsg);
  }

  private async applyRule(
    trx: Db,
    datasetId: string,
    rule: { from: readonly DatasetStatus[]; to: StatusTarget } | undefined,
    config: Record<string, unknown>,
    fatalErrorMsg: string | null,
  ): Promise<void> {
    if (!rule) return;
    const to = statusAfter(rule.to, config);
    if (!to) return;
    // Going back to where the dataset was before leaves it exactly as it was: no error message either.
    const extra = rule.to === 'previous' ? { progress: 100 } : { fatal_error_msg: fatalErrorMsg };
    await trx
      .updateTable('datasets')
      .set({ status_new: to, ...extra })
      .where('id', '=', datasetId)
      .where('status_new', 'in', rule.from)
      .execute();
  }

  /**
   * Puts a FAILED or ABORTED task back to INITIALIZING with its original config and queues it again; `answer` reads
   * what to return in the same transaction (a worker may take the task the moment it commits). Null when the task
   * was no longer FAILED or ABORTED.
   */
  async retry<T>(taskId: string, answer: (trx: Db) => Promise<T>): Promise<T | null> {
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
      await this.applyDatasetRule(trx, row, DATASET_STATUS_ON_RETRY, null);
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
  async fail(taskId: string, errorMessage: string, attempt?: number): Promise<void> {
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
      if (row) await this.applyDatasetRule(trx, row, DATASET_STATUS_ON_STOP, errorMessage);
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
