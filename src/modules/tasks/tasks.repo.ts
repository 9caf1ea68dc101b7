import { type Expression, type SqlBool, sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../adapters/db/database.js';
import { queryPrepared } from '../../adapters/db/prepared.js';
import type { TaskRow } from '../../adapters/db/schema.js';
import { ACTIVE_STATUSES, type TaskSortField, type TaskStatus, type TaskType } from '../../core/tasks.js';

export interface TaskFilters {
  dataset_id?: string;
  dataset_name?: string;
  task_type?: TaskType;
  task_status?: TaskStatus;
  created_by?: string;
  start_time_from?: string;
  start_time_to?: string;
}

export interface NewTask {
  datasetId: string;
  type: TaskType;
  createdBy: string;
  config?: Record<string, unknown>;
  statusMessage?: string;
}

/** Job attempts cover restarts and crashes only: a handler's own failure ends the task as FAILED at once. */
export const JOB_MAX_ATTEMPTS = 10;

const SORT_COLUMNS: Record<TaskSortField, string> = {
  start_time: 't.start_time',
  status: 't.status',
  task_type: 't.task_type',
  dataset_name: 'd.display_name',
  dataset_id: 't.dataset_id',
  created_by: 'u.email',
};

export class TasksRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

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
    await sql`select graphile_worker.add_job(${type}::text, json_build_object('taskId', ${taskId}::text),
      max_attempts => ${JOB_MAX_ATTEMPTS}::int, job_key => ${taskId}::text, job_key_mode => 'replace')`.execute(trx);
  }

  private visible(userId: string) {
    return sql<SqlBool>`(d.owner_id = ${userId} or exists (
      select 1 from dataset_access a where a.dataset_id = d.id and a.user_id = ${userId}))`;
  }

  private selectTasks(userId: string) {
    return this.db
      .selectFrom('tasks as t')
      .innerJoin('datasets as d', 'd.id', 't.dataset_id')
      .innerJoin('users as u', 'u.id', 't.created_by')
      .where(this.visible(userId));
  }

  private filtered(userId: string, f: TaskFilters) {
    let q = this.selectTasks(userId);
    if (f.dataset_id) q = q.where('t.dataset_id', '=', f.dataset_id);
    if (f.dataset_name) q = q.where('d.display_name', '=', f.dataset_name);
    if (f.task_type) q = q.where('t.task_type', '=', f.task_type);
    if (f.task_status) q = q.where('t.status', '=', f.task_status);
    if (f.created_by) q = q.where(sql`lower(u.email)`, '=', f.created_by.toLowerCase());
    if (f.start_time_from) q = q.where('t.start_time', '>=', new Date(f.start_time_from));
    if (f.start_time_to) q = q.where('t.start_time', '<=', new Date(f.start_time_to));
    return q;
  }

  /** One round trip: the page, with the exact total computed once beside it. */
  async list(userId: string, f: TaskFilters, sort: { by: TaskSortField; order: 'asc' | 'desc' }, page: { limit: number; offset: number }) {
    const direction = sql.raw(sort.order);
    const total = this.countQuery(userId, f);
    let query = this.filtered(userId, f)
      .select(TASK_VIEW_COLUMNS)
      .select(sql<number>`(${total})`.as('total'))
      .orderBy(sql`${sql.raw(SORT_COLUMNS[sort.by])} ${direction}`);
    if (sort.by !== 'start_time') query = query.orderBy(sql`t.start_time ${direction}`);
    const rows = await queryPrepared(this.pool, query.orderBy(sql`t.id ${direction}`).limit(page.limit).offset(page.offset));
    if (rows.length > 0) return { rows, total: rows[0]!.total };
    return { rows, total: (await total.executeTakeFirstOrThrow()).total };
  }

  /** Exact totals from the trigger-kept counters; only a start-time range needs the rows themselves. */
  private countQuery(userId: string, f: TaskFilters) {
    if (f.start_time_from || f.start_time_to) {
      return this.filtered(userId, f).select(sql<number>`count(*)::int8`.as('total'));
    }
    let q = this.db
      .selectFrom('task_counts as c')
      .innerJoin('datasets as d', 'd.id', 'c.dataset_id')
      .where(this.visible(userId))
      .select(sql<number>`coalesce(sum(c.n), 0)::int8`.as('total'));
    if (f.dataset_id) q = q.where('c.dataset_id', '=', f.dataset_id);
    if (f.dataset_name) q = q.where('d.display_name', '=', f.dataset_name);
    if (f.task_type) q = q.where('c.task_type', '=', f.task_type);
    if (f.task_status) q = q.where('c.status', '=', f.task_status);
    if (f.created_by) {
      const email = f.created_by.toLowerCase();
      q = q.where('c.created_by', 'in', (eb) => eb.selectFrom('users').select('id').where(sql`lower(email)`, '=', email));
    }
    return q;
  }

  async filterOptions(userId: string, f: Pick<TaskFilters, 'start_time_from' | 'start_time_to'>) {
    const base = this.filtered(userId, f);
    const [datasets, types, creators] = await Promise.all([
      base.select(['d.id', 'd.display_name']).distinct().orderBy('d.display_name').orderBy('d.id').execute(),
      base.select('t.task_type').distinct().orderBy('t.task_type').execute(),
      base.select('u.email').distinct().orderBy('u.email').execute(),
    ]);
    return {
      dataset_names: [...new Set(datasets.map((d) => d.display_name))],
      dataset_ids: datasets.map((d) => d.id),
      task_types: types.map((t) => t.task_type),
      created_by: creators.map((c) => c.email),
    };
  }

  async findVisible(taskId: string, userId: string) {
    return this.selectTasks(userId).select(TASK_VIEW_COLUMNS).select('t.phase').where('t.id', '=', taskId).executeTakeFirst();
  }

  async findView(taskId: string) {
    return this.db
      .selectFrom('tasks as t')
      .innerJoin('datasets as d', 'd.id', 't.dataset_id')
      .innerJoin('users as u', 'u.id', 't.created_by')
      .select(TASK_VIEW_COLUMNS)
      .where('t.id', '=', taskId)
      .executeTakeFirstOrThrow();
  }

  async find(taskId: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
  }

  /** Abort wins only while the task is still active and not committing; the check and the write are one statement. */
  async abort(taskId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ status: 'ABORTED', status_message: 'Aborted by user', end_time: sql`now()` })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES)
      .where('phase', '=', 'work')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Puts a FAILED or ABORTED task back to INITIALIZING with its original config and queues it again. */
  async retry(taskId: string): Promise<boolean> {
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
        })
        .where('id', '=', taskId)
        .where('status', 'in', ['FAILED', 'ABORTED'])
        .returning('task_type')
        .executeTakeFirst();
      if (!row) return false;
      await this.enqueue(trx, taskId, row.task_type);
      return true;
    });
  }

  /** Claims the task for a worker run; returns undefined when it is no longer active (aborted, finished). */
  async markRunning(taskId: string, workerInstance: string, jobLockedBy: string | null): Promise<TaskRow | undefined> {
    return this.db
      .updateTable('tasks')
      .set({ status: 'RUNNING', status_message: 'Running', phase: 'work', worker_instance: workerInstance, job_locked_by: jobLockedBy })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES)
      .returningAll()
      .executeTakeFirst();
  }

  /** Records progress; false means the task stopped being RUNNING (it was aborted). */
  async progress(taskId: string, percentage: number | null, message: string | undefined): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ progress_percentage: percentage, ...(message === undefined ? {} : { status_message: message }) })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    const row = await this.db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirst();
    return row?.status;
  }

  /** From here on the task cannot be aborted; false when an abort got there first. */
  async enterCommitPhase(taskId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ phase: 'commit', status_message: 'Committing' })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async complete(trx: Db, taskId: string, message: string): Promise<boolean> {
    const result = await trx
      .updateTable('tasks')
      .set({ status: 'COMPLETED', status_message: message, progress_percentage: 100, end_time: sql`now()`, worker_instance: null })
      .where('id', '=', taskId)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async fail(taskId: string, errorMessage: string): Promise<void> {
    await this.db
      .updateTable('tasks')
      .set({ status: 'FAILED', status_message: 'Failed', error_message: errorMessage, end_time: sql`now()`, worker_instance: null })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES)
      .execute();
  }

  /** Left for the next worker run: the job stays queued and the handler resumes from stored state. */
  async markInterrupted(taskId: string, message: string): Promise<void> {
    await this.db
      .updateTable('tasks')
      .set({ status_message: message, worker_instance: null, job_locked_by: null })
      .where('id', '=', taskId)
      .where('status', 'in', ACTIVE_STATUSES)
      .execute();
  }

  // --- worker liveness and crash recovery ---

  async heartbeat(instanceId: string): Promise<void> {
    await this.db
      .insertInto('worker_instances')
      .values({ id: instanceId, heartbeat_at: sql`now()` as unknown as Date })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` as unknown as Date }))
      .execute();
  }

  async forceUnlockJobs(workerIds: string[]): Promise<void> {
    if (workerIds.length > 0) await sql`select graphile_worker.force_unlock_workers(${workerIds}::text[])`.execute(this.db);
  }

  /** Every graphile worker id holding a job lock; only meaningful when this process owns the database alone. */
  async jobLockHolders(): Promise<string[]> {
    const result = await sql<{ locked_by: string }>`
      select distinct locked_by from graphile_worker._private_jobs where locked_by is not null`.execute(this.db);
    return result.rows.map((r) => r.locked_by);
  }

  async removeInstance(instanceId: string): Promise<void> {
    await this.db.deleteFrom('worker_instances').where('id', '=', instanceId).execute();
  }

  /**
   * Active tasks whose worker is gone: claimed by an instance with no recent heartbeat (or, when this
   * worker owns the database alone, by any other instance), or queued with no job left to run them.
   */
  async findOrphans(selfId: string, staleAfterSeconds: number, exclusive: boolean) {
    const liveOthers: Expression<SqlBool> = exclusive
      ? sql<SqlBool>`false`
      : sql<SqlBool>`exists (select 1 from worker_instances w where w.id = t.worker_instance
          and w.heartbeat_at > now() - make_interval(secs => ${staleAfterSeconds}))`;
    const result = await sql<{ id: string; job_locked_by: string | null; job_runnable: boolean; job_exists: boolean }>`
      select t.id, t.job_locked_by,
        coalesce(j.attempts < j.max_attempts, false) as job_runnable,
        j.id is not null as job_exists
      from tasks t
      left join graphile_worker._private_jobs j on j.key = t.id::text
      where t.status in ('INITIALIZING', 'RUNNING')
        and (
          (t.worker_instance is not null and t.worker_instance <> ${selfId} and not ${liveOthers})
          or (t.worker_instance is null and j.id is null)
        )`.execute(this.db);
    return result.rows;
  }
}

const TASK_VIEW_COLUMNS = [
  't.id',
  't.dataset_id',
  'd.display_name as dataset_name',
  'd.status_new as dataset_status',
  'u.email as created_by',
  't.task_type',
  't.status',
  't.status_message',
  't.progress_percentage',
  't.error_message',
  't.start_time',
  't.end_time',
] as const;

export type TaskView = Awaited<ReturnType<TasksRepo['findView']>>;
