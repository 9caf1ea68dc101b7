import { type SqlBool, sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../adapters/db/database.js';
import { queryPrepared } from '../../adapters/db/prepared.js';
import type { TaskSortField, TaskStatus, TaskType } from '../../core/tasks.js';

export interface TaskFilters {
  dataset_id?: string;
  dataset_name?: string;
  task_type?: TaskType;
  task_status?: TaskStatus;
  created_by?: string;
  start_time_from?: string;
  start_time_to?: string;
}

const SORT_COLUMNS: Record<TaskSortField, string> = {
  start_time: 't.start_time',
  status: 't.status',
  task_type: 't.task_type',
  dataset_name: 'd.display_name',
  dataset_id: 't.dataset_id',
  created_by: 'u.email',
};

/** The read side of tasks: what the Task Manager lists, always limited to datasets the caller can see. */
export class TaskListRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

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

  async findView(taskId: string, db: Db = this.db) {
    return db
      .selectFrom('tasks as t')
      .innerJoin('datasets as d', 'd.id', 't.dataset_id')
      .innerJoin('users as u', 'u.id', 't.created_by')
      .select(TASK_VIEW_COLUMNS)
      .where('t.id', '=', taskId)
      .executeTakeFirstOrThrow();
  }
}

/** A timestamp as JavaScript's toISOString spells it, formatted by PostgreSQL: parsing 100 dates into Date objects per page and printing them again was a tenth of the list's CPU. */
function isoText(column: 't.start_time' | 't.end_time') {
  return sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
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
  isoText('t.start_time').$notNull().as('start_time'),
  isoText('t.end_time').as('end_time'),
] as const;

export type TaskView = Awaited<ReturnType<TaskListRepo['findView']>>;
