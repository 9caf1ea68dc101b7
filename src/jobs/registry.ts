import type { Logger } from 'pino';
import type { Db } from '../adapters/db/database.js';
import { TASK_TYPES, type TaskType } from '../core/tasks.js';

/** What a handler gets: ids and config re-read from the task row, progress, abort, and the commit phase. */
export interface TaskContext {
  taskId: string;
  taskType: TaskType;
  datasetId: string;
  createdBy: string;
  config: Record<string, unknown>;
  /** Fires when a user aborts the task or the worker shuts down; check it between units of work. */
  signal: AbortSignal;
  log: Logger;
  /** Records progress (0–100) and throws if the task was aborted meanwhile. */
  progress(percentage: number | null, message?: string): Promise<void>;
  /**
   * Enters the final phase (abort is refused from here) and runs `work` in the same database
   * transaction that marks the task COMPLETED, so results and completion land together or not at all.
   * `message` may be made from what `work` returns (e.g. how many rows it changed).
   */
  commit<T>(work: (trx: Db) => Promise<T>, message?: string | ((result: T) => string)): Promise<T>;
}

export type TaskHandler = (ctx: TaskContext) => Promise<void>;

export interface JobDefinition {
  type: TaskType;
  handler: TaskHandler;
}

/**
 * Refuses to boot on a bad registry: an unknown task type, a type with two handlers, or a type
 * the service can start (`required`) with no handler at all.
 */
export function checkRegistry(definitions: readonly JobDefinition[], required: readonly TaskType[]): Map<TaskType, JobDefinition> {
  const byType = new Map<TaskType, JobDefinition>();
  const problems: string[] = [];
  for (const def of definitions) {
    if (!TASK_TYPES.includes(def.type)) problems.push(`unknown task type ${def.type}`);
    else if (byType.has(def.type)) problems.push(`task type ${def.type} has more than one handler`);
    else byType.set(def.type, def);
  }
  for (const type of required) if (!byType.has(type)) problems.push(`task type ${type} has no handler`);
  if (problems.length > 0) throw new Error(`Invalid job registry: ${problems.join('; ')}`);
  return byType;
}
