import type { paths } from '../api/schema.js';

type ListQuery = NonNullable<paths['/api/v1/tasks']['get']['parameters']['query']>;
export type TaskList = paths['/api/v1/tasks']['get']['responses'][200]['content']['application/json'];
export type Task = TaskList['tasks'][number];
export type TaskStatus = Task['status'];
export type TaskType = Task['task_type'];
export type TaskSortField = NonNullable<ListQuery['sort_by']>;
export type SortOrder = NonNullable<ListQuery['sort_order']>;

export const TASK_STATUSES = ['INITIALIZING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'] as const satisfies readonly TaskStatus[];
export const SORT_FIELDS = ['start_time', 'status', 'task_type', 'dataset_name', 'dataset_id', 'created_by'] as const satisfies readonly TaskSortField[];
export const PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 20;

/**
 * What the Task Manager shows, as its URL search params hold it. The start-time bounds are kept as the
 * `datetime-local` inputs write them (local time, no zone) and turned into instants only for the API.
 */
export interface TaskQuery {
  dataset_id?: string;
  dataset_name?: string;
  task_type?: TaskType;
  task_status?: TaskStatus;
  created_by?: string;
  start_from?: string;
  start_to?: string;
  sort_by: TaskSortField;
  sort_order: SortOrder;
  page: number;
  page_size: number;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

const TYPE_WORD = /^[A-Z][A-Z_]{0,63}$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** The query a URL asks for; values the API would refuse are dropped rather than sent. */
export function taskQueryFromParams(params: URLSearchParams): TaskQuery {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const time = (name: string) => {
    const value = text(name);
    return value && LOCAL_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
  };
  const size = positiveInt(params.get('page_size'));
  return {
    dataset_id: text('dataset_id'),
    dataset_name: text('dataset_name'),
    // The types on offer come from GET /api/v1/tasks/filters; one it does not know is answered with the API's 422 detail.
    task_type: TYPE_WORD.test(params.get('task_type') ?? '') ? (params.get('task_type') as TaskType) : undefined,
    task_status: oneOf(TASK_STATUSES, params.get('task_status')),
    created_by: text('created_by'),
    start_from: time('start_from'),
    start_to: time('start_to'),
    sort_by: oneOf(SORT_FIELDS, params.get('sort_by')) ?? 'start_time',
    sort_order: oneOf(['asc', 'desc'] as const, params.get('sort_order')) ?? 'desc',
    page: positiveInt(params.get('page')) ?? 1,
    page_size: size === undefined ? DEFAULT_PAGE_SIZE : Math.min(50, Math.max(5, size)),
  };
}

/** The URL search params of a query, leaving out what equals the default so links stay short. */
export function taskQueryToParams(q: TaskQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string | undefined, fallback?: string) => {
    if (value !== undefined && value !== '' && value !== fallback) params.set(name, value);
  };
  set('dataset_id', q.dataset_id);
  set('dataset_name', q.dataset_name);
  set('task_type', q.task_type);
  set('task_status', q.task_status);
  set('created_by', q.created_by);
  set('start_from', q.start_from);
  set('start_to', q.start_to);
  set('sort_by', q.sort_by, 'start_time');
  set('sort_order', q.sort_order, 'desc');
  set('page', String(q.page), '1');
  set('page_size', String(q.page_size), String(DEFAULT_PAGE_SIZE));
  return params;
}

/** The query string of GET /api/v1/tasks for what the page shows. */
export function apiTaskQuery(q: TaskQuery): ListQuery {
  const instant = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);
  const query: ListQuery = {
    dataset_id: q.dataset_id,
    dataset_name: q.dataset_name,
    task_type: q.task_type,
    task_status: q.task_status,
    created_by: q.created_by,
    start_time_from: instant(q.start_from),
    start_time_to: instant(q.start_to),
    sort_by: q.sort_by,
    sort_order: q.sort_order,
    page: q.page,
    page_size: q.page_size,
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as ListQuery;
}

/** A filter change starts again at page 1: the old page may not exist in the new result. */
export function withFilter(q: TaskQuery, change: Partial<Omit<TaskQuery, 'page' | 'sort_by' | 'sort_order'>>): TaskQuery {
  return { ...q, ...change, page: 1 };
}

/** Clicking a column's header: sort by it descending first, then flip the order on the next click. */
export function sortedBy(q: TaskQuery, field: TaskSortField): TaskQuery {
  const order: SortOrder = q.sort_by === field ? (q.sort_order === 'desc' ? 'asc' : 'desc') : 'desc';
  return { ...q, sort_by: field, sort_order: order, page: 1 };
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** Still changing: the list follows these until they end. */
export const isLive = (task: Pick<Task, 'status'>) => task.status === 'INITIALIZING' || task.status === 'RUNNING';

export const canAbort = (task: Pick<Task, 'status' | 'task_type'>) => task.task_type === 'DATASET_CREATION' && isLive(task);
export const canRetry = (task: Pick<Task, 'status' | 'task_type'>) =>
  task.task_type === 'DATASET_CREATION' && (task.status === 'FAILED' || task.status === 'ABORTED');

/** "DATASET_CREATION" → "Dataset creation", for labels. */
export const humanize = (word: string) => {
  const lower = word.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
};
