import { DATASET_STATUSES, type DatasetStatus } from './dataset-status.js';
import { errors } from './errors.js';
import { TASK_TYPES, type TaskType } from './tasks.js';

/** Operations on a dataset that are checked against its status and running tasks before they start. */
export const DATASET_OPERATIONS = [
  'process_files',
  'add_media',
  'reindex',
  'create_snapshot',
  'restore_snapshot',
  'clone_snapshot',
  'edit_annotations',
  'import_custom_metadata',
  'propagate_labels',
  'enrich_dataset',
  'dedup',
  'select_media',
  'find_leakage',
  'find_label_errors',
] as const;
export type DatasetOperation = (typeof DATASET_OPERATIONS)[number];

/** A dataset status, or the one the dataset had when the task started (kept in the task's config as `previous_status`). */
export type StatusTarget = DatasetStatus | 'previous';

/** A status change that applies only while the dataset is in one of `from` (something else may have moved it meanwhile). */
export interface Transition {
  from: readonly DatasetStatus[];
  to: StatusTarget;
  /** A media batch that reindexed (config.auto_reindex) ends READY instead. */
  toAfterReindex?: DatasetStatus;
}

export interface OperationRule {
  /** The statuses it may start from (spec 3.1 and 4.1). */
  from: readonly DatasetStatus[];
  /** Running tasks that refuse it with a 409. */
  blockedBy: readonly TaskType[];
  /** How the refusal by a running task reads: `blocked` names the operation, `already running` the task (process_files). */
  refusal?: 'already running';
  /** The status the checked dataset takes when it starts; absent: unchanged. */
  start?: DatasetStatus;
  /** The task it creates; absent: the change is made in the request (under the same row lock). */
  task?: TaskType;
  /** `copy`: the task runs on a new dataset made from the checked one (INDEXING, `config.source_dataset_id` naming its source). */
  taskOn?: 'copy';
  /** The task's own dataset while the task recomputes the whole index (media addition with auto_reindex, reindex). */
  indexing?: Transition;
  /** The task's own dataset when the task commits. Absent: unchanged (the head swap keeps the status). */
  commit?: Transition;
  /** …when the task fails or is aborted: ERROR with the reason, or back to where it was. */
  stop?: Transition;
  /** …when a stopped task is queued again. */
  retry?: Transition;
  /** What the task does to the dataset it read from (a copy's source), on commit and on stop. */
  source?: { commit?: Transition; stop?: Transition };
}

const ALL_STATUSES: readonly DatasetStatus[] = DATASET_STATUSES;

/** Everything that writes a dataset's media, index or annotations (spec 4.1 rule 1's list). */
const DATA_CHANGES: readonly TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'];

/**
 * Tasks that fork the head when they start and make their fork the head when they commit: an edit made
 * meanwhile would be lost, so edits wait for them. An import or a propagation applies its change to the
 * head as it is at its commit (under the dataset row lock), so edits may go on while those run.
 */
const HEAD_REPLACERS: readonly TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE'];

/** A batch or reindex shows READ ONLY, INDEXING while it recomputes the index; it never becomes the head when it stops. */
const WHILE_CHANGING: readonly DatasetStatus[] = ['READ ONLY', 'INDEXING'];

/**
 * The dataset lifecycle, one row per operation. Running tasks that block: a clone's task belongs to the new
 * dataset, so it blocks nothing on the source except a restore ("blocked while any major operation runs,
 * including another restore or clone"); the guard lists the clones made from a dataset among its running
 * tasks for that. An enrichment's task also belongs to its copy, but it reads the source's head, so it is
 * listed among the source's running tasks: it blocks every change there.
 */
export const LIFECYCLE: Record<DatasetOperation, OperationRule> = {
  // A new dataset's upload transaction handed to its creation; a creation that stops is ERROR until retried.
  process_files: {
    from: ALL_STATUSES,
    blockedBy: ['DATASET_CREATION'],
    refusal: 'already running',
    start: 'INDEXING',
    task: 'DATASET_CREATION',
    commit: { from: ['INDEXING'], to: 'READY' },
    stop: { from: ['INDEXING'], to: 'ERROR' },
    retry: { from: ['ERROR'], to: 'INDEXING' },
  },
  add_media: {
    from: ['READY', 'PARTIAL INDEX'],
    blockedBy: DATA_CHANGES,
    start: 'READ ONLY',
    task: 'MEDIA_ADDITION',
    indexing: { from: ['READ ONLY'], to: 'INDEXING' },
    commit: { from: WHILE_CHANGING, to: 'PARTIAL INDEX', toAfterReindex: 'READY' },
    stop: { from: WHILE_CHANGING, to: 'previous' },
  },
  reindex: {
    from: ['PARTIAL INDEX'],
    blockedBy: DATA_CHANGES,
    start: 'READ ONLY',
    task: 'REINDEX',
    indexing: { from: ['READ ONLY'], to: 'INDEXING' },
    commit: { from: WHILE_CHANGING, to: 'READY' },
    stop: { from: WHILE_CHANGING, to: 'previous' },
  },
  create_snapshot: { from: ['READY'], blockedBy: DATA_CHANGES },
  restore_snapshot: {
    from: ['READY', 'PARTIAL INDEX', 'ERROR'],
    blockedBy: TASK_TYPES,
    start: 'READ ONLY',
    task: 'SNAPSHOT_RESTORE',
    commit: { from: ['READ ONLY'], to: 'READY' },
    stop: { from: ['READ ONLY'], to: 'previous' },
  },
  // The source is not held: the clone reads a sealed snapshot.
  clone_snapshot: {
    from: ['READY', 'PARTIAL INDEX', 'ERROR'],
    blockedBy: [],
    task: 'SNAPSHOT_CLONE',
    taskOn: 'copy',
    commit: { from: ['INDEXING'], to: 'READY' },
    stop: { from: ['INDEXING'], to: 'ERROR' },
  },
  edit_annotations: { from: ['READY', 'PARTIAL INDEX'], blockedBy: HEAD_REPLACERS },
  import_custom_metadata: { from: ['READY', 'PARTIAL INDEX'], blockedBy: DATA_CHANGES, task: 'CUSTOM_METADATA' },
  propagate_labels: { from: ['READY', 'PARTIAL INDEX'], blockedBy: [...HEAD_REPLACERS, 'LABEL_PROPAGATION'], task: 'LABEL_PROPAGATION' },
  // The source is held READ ONLY while the copy is made, and given back as it was whatever the outcome.
  enrich_dataset: {
    from: ['READY'],
    blockedBy: DATA_CHANGES,
    start: 'READ ONLY',
    task: 'ENRICHMENT',
    taskOn: 'copy',
    commit: { from: ['INDEXING'], to: 'READY' },
    stop: { from: ['INDEXING'], to: 'ERROR' },
    source: { commit: { from: ['READ ONLY'], to: 'previous' }, stop: { from: ['READ ONLY'], to: 'previous' } },
  },
  // Applies to the head as it is at its commit (snapshot, then a version without the duplicates), as a propagation does.
  dedup: { from: ['READY', 'PARTIAL INDEX'], blockedBy: [...HEAD_REPLACERS, 'DEDUP'], task: 'DEDUP' },
  // Reads the head, then tags it at commit as it is then (like a propagation) or makes a new READY dataset there.
  select_media: { from: ['READY', 'PARTIAL INDEX'], blockedBy: [...HEAD_REPLACERS, 'SELECTION'], task: 'SELECTION' },
  // Reads the head's index; its optional tags apply to the head as it is at the commit, as a propagation's labels do.
  find_leakage: { from: ['READY', 'PARTIAL INDEX'], blockedBy: HEAD_REPLACERS, task: 'LEAKAGE' },
  // Reads the head and writes only scores, swapped in with a carried fork at its commit: edits go on meanwhile.
  find_label_errors: { from: ['READY', 'PARTIAL INDEX'], blockedBy: [...HEAD_REPLACERS, 'LABEL_ERRORS'], task: 'LABEL_ERRORS' },
};

/** The statuses each operation may start from, and the running tasks that block it: the guard's columns of the table. */
export const OPERATION_FROM = columnOf('from');
export const BLOCKED_BY = columnOf('blockedBy');

function columnOf<K extends 'from' | 'blockedBy'>(key: K): Record<DatasetOperation, OperationRule[K]> {
  return Object.fromEntries(DATASET_OPERATIONS.map((op) => [op, LIFECYCLE[op][key]])) as Record<DatasetOperation, OperationRule[K]>;
}

/** The operation that starts each task type (one each). */
export function operationOf(type: TaskType): DatasetOperation {
  const operation = DATASET_OPERATIONS.find((op) => LIFECYCLE[op].task === type);
  if (!operation) throw new Error(`no operation starts ${type} tasks`);
  return operation;
}

export type OperationCheck = { ok: true } | { ok: false; reason: 'blocked'; by: TaskType } | { ok: false; reason: 'status'; status: DatasetStatus };

/** The one guard: a running blocker is reported before the status, because it is what explains a READ ONLY status. */
export function checkOperation(operation: DatasetOperation, status: DatasetStatus, runningTypes: readonly TaskType[]): OperationCheck {
  const rule = LIFECYCLE[operation];
  const blocker = runningTypes.find((t) => rule.blockedBy.includes(t));
  if (blocker) return { ok: false, reason: 'blocked', by: blocker };
  if (!rule.from.includes(status)) return { ok: false, reason: 'status', status };
  return { ok: true };
}

/** The guard as the services use it: the check, or the 409 that explains it. */
export function requireOperation(operation: DatasetOperation, status: DatasetStatus, runningTypes: readonly TaskType[]): void {
  const check = checkOperation(operation, status, runningTypes);
  if (check.ok) return;
  if (check.reason === 'status') throw errors.operationStatus(operation, check.status, OPERATION_FROM[operation]);
  throw LIFECYCLE[operation].refusal === 'already running' ? errors.operationRunning(check.by) : errors.operationBlocked(operation, check.by);
}

/** Said on a creation's dataset when its task is aborted. */
export const CREATION_ABORTED = 'The task creating this dataset was aborted; retry it to resume';

/** What starting an operation does, once the guard let it: the status it sets, the task it creates, what that task's config keeps. */
export interface StartPlan {
  /** The checked dataset's new status (its progress restarts at 0); null: unchanged. */
  status: DatasetStatus | null;
  /** INDEXING from here means built again from its uploads: an earlier failure's message goes. */
  clearError: boolean;
  task: TaskType | null;
  taskOn: 'own' | 'copy';
  /** Added to the task's config: the status to go back to, the source a copy reads. */
  config: Record<string, unknown>;
}

/** Checks the guard (throwing its 409) and says what the start changes. */
export function startTransition(operation: DatasetOperation, dataset: { id: string; status: DatasetStatus }, runningTypes: readonly TaskType[]): StartPlan {
  requireOperation(operation, dataset.status, runningTypes);
  const rule = LIFECYCLE[operation];
  const goesBack = rule.stop?.to === 'previous' || rule.source?.stop?.to === 'previous';
  return {
    status: rule.start ?? null,
    clearError: rule.start === 'INDEXING',
    task: rule.task ?? null,
    taskOn: rule.taskOn ?? 'own',
    config: { ...(goesBack ? { previous_status: dataset.status } : {}), ...(rule.taskOn === 'copy' ? { source_dataset_id: dataset.id } : {}) },
  };
}

/** One dataset row to update: the task's own dataset or its source, only while in `from`, with the other fields to set. */
export interface StatusChange {
  dataset: 'own' | 'source';
  from: readonly DatasetStatus[];
  to: DatasetStatus;
  set: { progress?: number; fatal_error_msg?: string | null };
}

interface TaskFacts {
  task_type: TaskType;
  config: Record<string, unknown>;
}

/** Where a task's dataset (and its source) go when the task commits, in the commit's transaction. */
export function finishTransition(task: TaskFacts): StatusChange[] {
  const rule = LIFECYCLE[operationOf(task.task_type)];
  const commit = rule.commit && task.config.auto_reindex === true && rule.commit.toAfterReindex ? { ...rule.commit, to: rule.commit.toAfterReindex } : rule.commit;
  return [...change('source', rule.source?.commit, task.config, {}), ...change('own', commit, task.config, {})];
}

/** Where they go when the task fails or is aborted: ERROR with the reason, or back where they were (no error then). */
export function stopTransition(task: TaskFacts, reason: string): StatusChange[] {
  const rule = LIFECYCLE[operationOf(task.task_type)];
  return [...change('source', rule.source?.stop, task.config, {}), ...change('own', rule.stop, task.config, { fatal_error_msg: reason })];
}

/** Where a stopped task's dataset goes when the task is queued again. */
export function retryTransition(task: TaskFacts): StatusChange[] {
  return change('own', LIFECYCLE[operationOf(task.task_type)].retry, task.config, { fatal_error_msg: null });
}

/** The change while a task recomputes the whole index. */
export function indexingTransition(task: TaskFacts): StatusChange[] {
  return change('own', LIFECYCLE[operationOf(task.task_type)].indexing, task.config, {});
}

function change(dataset: 'own' | 'source', rule: Transition | undefined, config: Record<string, unknown>, set: StatusChange['set']): StatusChange[] {
  if (!rule) return [];
  if (dataset === 'source' && typeof config.source_dataset_id !== 'string') return [];
  const to = statusAfter(rule.to, config);
  if (!to) return [];
  // Going back to where the dataset was before leaves it exactly as it was: no error message either.
  return [{ dataset, from: rule.from, to, set: rule.to === 'previous' ? { progress: 100 } : set }];
}

/** The status a target names; `previous` comes from the task's config (null when it holds none). */
export function statusAfter(target: StatusTarget, config: Record<string, unknown>): DatasetStatus | null {
  if (target !== 'previous') return target;
  const previous = config.previous_status;
  return typeof previous === 'string' && (DATASET_STATUSES as readonly string[]).includes(previous) ? (previous as DatasetStatus) : null;
}
