import type { Db } from '../../adapters/db/database.js';
import type { EmbeddingConfig } from '../../adapters/db/schema.js';
import type { DatasetStatus } from '../../core/dataset-status.js';
import { errors } from '../../core/errors.js';
import {
  type DatasetOperation,
  type StatusChange,
  finishTransition,
  indexingTransition,
  requireOperation,
  retryTransition,
  startTransition,
  stopTransition,
} from '../../core/lifecycle.js';
import type { TaskType } from '../../core/tasks.js';
import type { EndedTask, TaskEndings, TasksRepo } from '../tasks/tasks.repo.js';
import type { CopyOf, DatasetLifecycleRepo } from './dataset-lifecycle.repo.js';

/** A dataset as operations decide on it, read (and by default locked) in the caller's transaction. */
export interface DatasetState {
  id: string;
  status: DatasetStatus;
  headVersionId: string | null;
  embeddingConfig: EmbeddingConfig | null;
  /** Task types running on it, or reading it (clones and enrichments made from it). */
  running: TaskType[];
}

export interface StartRequest {
  datasetId: string;
  operation: DatasetOperation;
  createdBy: string;
  config?: Record<string, unknown>;
  statusMessage?: string;
  /** The state the caller already read and locked in this transaction (its own checks came first); read here when absent. */
  state?: DatasetState;
  /** For operations whose task runs on a new dataset (clone, enrichment): what it is made from. */
  copy?: Omit<CopyOf, 'source'> & { source: { display_name: string; description: string } };
}

/** A task a dataset change ends or moves: its dataset, type and config, as on its row. */
export type LifecycleTask = EndedTask;

/**
 * The dataset lifecycle's one owner: every operation starts here (row lock, guard, status, task and its job, in
 * the caller's transaction), and the task engine ends every task here (commit, stop, retry), all by the table
 * in src/core/lifecycle.ts.
 */
export class DatasetLifecycle implements TaskEndings {
  constructor(
    private readonly repo: DatasetLifecycleRepo,
    private readonly tasks: TasksRepo,
  ) {}

  /** The dataset's state; 404 when it is gone. */
  async state(trx: Db, datasetId: string, { lock = true }: { lock?: boolean } = {}): Promise<DatasetState> {
    const row = await this.repo.state(trx, datasetId, lock);
    if (!row) throw errors.datasetNotFound();
    return { id: datasetId, ...row, running: await this.repo.runningTypes(trx, datasetId) };
  }

  /** The guard for an operation, on a state already read. */
  guard(state: DatasetState, operation: DatasetOperation): DatasetState {
    requireOperation(operation, state.status, state.running);
    return state;
  }

  /** The state, checked for `operation` (409 when refused): for changes made in the request itself and for checks before a body is read. */
  async check(trx: Db, datasetId: string, operation: DatasetOperation, options: { lock?: boolean } = {}): Promise<DatasetState> {
    return this.guard(await this.state(trx, datasetId, options), operation);
  }

  /** Starts an operation's task in the caller's transaction; returns the task and the dataset it runs on (a copy for clones and enrichments). */
  async start(trx: Db, request: StartRequest): Promise<{ taskId: string; datasetId: string }> {
    const state = request.state ?? (await this.state(trx, request.datasetId));
    const plan = startTransition(request.operation, state, state.running);
    if (!plan.task) throw new Error(`${request.operation} starts no task`);
    let taskDatasetId = request.datasetId;
    if (plan.taskOn === 'copy') {
      if (!request.copy) throw new Error(`${request.operation} needs the copy it makes`);
      taskDatasetId = await this.repo.insertCopy(trx, { ...request.copy, source: { id: request.datasetId, ...request.copy.source } });
    }
    if (plan.status) await this.repo.setStartStatus(trx, request.datasetId, plan.status, plan.clearError);
    const taskId = await this.tasks.create(trx, {
      datasetId: taskDatasetId,
      type: plan.task,
      createdBy: request.createdBy,
      statusMessage: request.statusMessage,
      config: { ...request.config, ...plan.config },
    });
    return { taskId, datasetId: taskDatasetId };
  }

  /** Holds the dataset's row until the caller's transaction ends (a change that no operation guards, like a snapshot's deletion). */
  lock(trx: Db, datasetId: string): Promise<void> {
    return this.repo.lock(trx, datasetId);
  }

  /** A task recomputing the whole index shows it (READ ONLY → INDEXING). */
  async indexing(db: Db, task: LifecycleTask): Promise<void> {
    await this.apply(db, task, indexingTransition(task));
  }

  /** In the task's commit transaction. */
  finish(trx: Db, task: LifecycleTask): Promise<void> {
    return this.apply(trx, task, finishTransition(task));
  }

  /** In the transaction that fails or aborts the task. */
  stop(trx: Db, task: LifecycleTask, reason: string): Promise<void> {
    return this.apply(trx, task, stopTransition(task, reason));
  }

  /** In the transaction that queues a stopped task again. */
  retry(trx: Db, task: LifecycleTask): Promise<void> {
    return this.apply(trx, task, retryTransition(task));
  }

  private async apply(trx: Db, task: LifecycleTask, changes: StatusChange[]): Promise<void> {
    for (const change of changes) {
      await this.repo.apply(trx, change.dataset === 'source' ? String(task.config.source_dataset_id) : task.dataset_id, change);
    }
  }
}
