export const TASK_TYPES = [
  'DATASET_CREATION',
  'MEDIA_ADDITION',
  'REINDEX',
  'ENRICHMENT',
  'CUSTOM_METADATA',
  'SNAPSHOT_RESTORE',
  'SNAPSHOT_CLONE',
  // An extension of spec 2.2 (which names no type for it): spec 4.1 rule 1 lists label propagation among
  // the operations that block a snapshot, so it must show as its own task to be seen and to block.
  'LABEL_PROPAGATION',
  // Issue 29: removes (or tags) duplicates in one commit, after a snapshot; like LABEL_PROPAGATION, an extension.
  'DEDUP',
  // Issue 29: a subset for a labelling budget, tagged or cloned into a new dataset (docs/curation.md).
  'SELECTION',
  // Issue 29: near-duplicates across two datasets or two splits (docs/curation.md, Leakage); an extension like the one above.
  'LEAKAGE',
  // Issue 29: label errors (mislabel and class-outlier scores) written with a new head version.
  'LABEL_ERRORS',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['INITIALIZING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** `work` may be aborted; `commit` is the final phase that writes results and may not. */
export type TaskPhase = 'work' | 'commit';

export const FINAL_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'FAILED', 'ABORTED'];
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['INITIALIZING', 'RUNNING'];

/** Task types a user may abort and retry (spec 3.2). */
const ABORTABLE: readonly TaskType[] = ['DATASET_CREATION'];
const RETRYABLE: readonly TaskType[] = ['DATASET_CREATION'];

export type Decision = { ok: true } | { ok: false; reason: string };

export function canAbort(task: { task_type: TaskType; status: TaskStatus; phase: TaskPhase }): Decision {
  if (!ABORTABLE.includes(task.task_type)) return { ok: false, reason: `${task.task_type} tasks cannot be aborted` };
  if (FINAL_STATUSES.includes(task.status)) return { ok: false, reason: `it is already ${task.status}` };
  if (task.phase === 'commit') return { ok: false, reason: 'it is in its final commit phase' };
  return { ok: true };
}

export function canRetry(task: { task_type: TaskType; status: TaskStatus }): Decision {
  if (!RETRYABLE.includes(task.task_type)) return { ok: false, reason: `${task.task_type} tasks cannot be retried` };
  if (task.status !== 'FAILED' && task.status !== 'ABORTED') {
    return { ok: false, reason: `only FAILED or ABORTED tasks can be retried, this one is ${task.status}` };
  }
  return { ok: true };
}

export const TASK_SORT_FIELDS = ['start_time', 'status', 'task_type', 'dataset_name', 'dataset_id', 'created_by'] as const;
export type TaskSortField = (typeof TASK_SORT_FIELDS)[number];
