import { errors } from '../../core/errors.js';
import { CREATION_ABORTED } from '../../core/lifecycle.js';
import { type TaskSortField, canAbort, canRetry } from '../../core/tasks.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { TaskFilters, TaskListRepo } from './task-list.repo.js';
import type { TaskEndings, TasksRepo } from './tasks.repo.js';

export interface TaskListQuery extends TaskFilters {
  sort_by?: TaskSortField;
  sort_order?: 'asc' | 'desc';
  page?: number;
  page_size?: number;
}

export class TasksService {
  constructor(
    private readonly repo: TasksRepo,
    private readonly read: TaskListRepo,
    private readonly datasets: DatasetsService,
    private readonly endings: TaskEndings,
  ) {}

  async list(principal: Principal, q: TaskListQuery) {
    const page = q.page ?? 1;
    const pageSize = q.page_size ?? 20;
    const { rows, total } = await this.read.list(
      principal.userId,
      q,
      { by: q.sort_by ?? 'start_time', order: q.sort_order ?? 'desc' },
      { limit: pageSize, offset: (page - 1) * pageSize },
    );
    return { rows, total, page, pageSize };
  }

  filters(principal: Principal, q: Pick<TaskFilters, 'start_time_from' | 'start_time_to'>) {
    return this.read.filterOptions(principal.userId, q);
  }

  /** One task as the list shows it; a task on a dataset the caller cannot see does not exist for them (404). */
  async get(principal: Principal, taskId: string) {
    const task = await this.read.findVisible(taskId, principal.userId);
    if (!task) throw errors.taskNotFound();
    return task;
  }

  /** A task on a dataset the caller cannot see does not exist for them (404); aborting needs write access. */
  private async findWritable(principal: Principal, taskId: string) {
    const task = await this.get(principal, taskId);
    await this.datasets.authorize(principal, task.dataset_id, 'write');
    return task;
  }

  async abort(principal: Principal, taskId: string) {
    const task = await this.findWritable(principal, taskId);
    const decision = canAbort(task);
    if (!decision.ok) throw errors.taskNotAbortable(decision.reason);
    if (!(await this.repo.abort(taskId, (trx, ended) => this.endings.stop(trx, ended, CREATION_ABORTED)))) {
      const now = await this.read.findVisible(taskId, principal.userId);
      throw errors.taskNotAbortable(now?.phase === 'commit' ? 'it is in its final commit phase' : `it is already ${now?.status}`);
    }
    return this.read.findView(taskId);
  }

  async retry(principal: Principal, taskId: string) {
    const task = await this.findWritable(principal, taskId);
    const decision = canRetry(task);
    if (!decision.ok) throw errors.taskNotRetryable(decision.reason);
    const view = await this.repo.retry(
      taskId,
      (trx, ended) => this.endings.retry(trx, ended),
      (trx) => this.read.findView(taskId, trx),
    );
    if (!view) throw errors.taskNotRetryable('its status changed meanwhile');
    return view;
  }
}
