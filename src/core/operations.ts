import type { DatasetStatus } from './dataset-status.js';
import { errors } from './errors.js';
import { TASK_TYPES, type TaskType } from './tasks.js';

/** Operations on a dataset that are checked against its status and running tasks before they start. */
export const DATASET_OPERATIONS = [
  'add_media',
  'reindex',
  'create_snapshot',
  'restore_snapshot',
  'clone_snapshot',
  'edit_annotations',
  'import_custom_metadata',
  'propagate_labels',
  'enrich_dataset',
] as const;
export type DatasetOperation = (typeof DATASET_OPERATIONS)[number];

/** Everything that writes a dataset's media, index or annotations (spec 4.1 rule 1's list). */
const DATA_CHANGES: readonly TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE'];

/**
 * Tasks that fork the head when they start and make their fork the head when they commit: an edit made
 * meanwhile would be lost, so edits wait for them. An import or a propagation applies its change to the
 * head as it is at its commit (under the dataset row lock), so edits may go on while those run.
 */
const HEAD_REPLACERS: readonly TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE'];

/** The statuses each operation may start from (spec 3.1 and 4.1). */
export const OPERATION_FROM: Record<DatasetOperation, readonly DatasetStatus[]> = {
  add_media: ['READY', 'PARTIAL INDEX'],
  reindex: ['PARTIAL INDEX'],
  create_snapshot: ['READY'],
  restore_snapshot: ['READY', 'PARTIAL INDEX', 'ERROR'],
  clone_snapshot: ['READY', 'PARTIAL INDEX', 'ERROR'],
  edit_annotations: ['READY', 'PARTIAL INDEX'],
  import_custom_metadata: ['READY', 'PARTIAL INDEX'],
  propagate_labels: ['READY', 'PARTIAL INDEX'],
  enrich_dataset: ['READY'],
};

/**
 * Running tasks that block each operation. A clone's task belongs to the new dataset, so it blocks
 * nothing on the source except a restore ("blocked while any major operation runs, including another
 * restore or clone"); callers list the clones made from a dataset among its running tasks for that.
 * An enrichment's task also belongs to its new copy, but it reads the source's head, so callers list it
 * among the source's running tasks: it blocks every change there.
 */
export const BLOCKED_BY: Record<DatasetOperation, readonly TaskType[]> = {
  add_media: DATA_CHANGES,
  reindex: DATA_CHANGES,
  create_snapshot: DATA_CHANGES,
  restore_snapshot: TASK_TYPES,
  clone_snapshot: [],
  edit_annotations: HEAD_REPLACERS,
  import_custom_metadata: DATA_CHANGES,
  propagate_labels: [...HEAD_REPLACERS, 'LABEL_PROPAGATION'],
  enrich_dataset: DATA_CHANGES,
};

export type OperationCheck = { ok: true } | { ok: false; reason: 'blocked'; by: TaskType } | { ok: false; reason: 'status'; status: DatasetStatus };

/** The one guard: a running blocker is reported before the status, because it is what explains a READ ONLY status. */
export function checkOperation(operation: DatasetOperation, status: DatasetStatus, runningTypes: readonly TaskType[]): OperationCheck {
  const blocker = runningTypes.find((t) => BLOCKED_BY[operation].includes(t));
  if (blocker) return { ok: false, reason: 'blocked', by: blocker };
  if (!OPERATION_FROM[operation].includes(status)) return { ok: false, reason: 'status', status };
  return { ok: true };
}

/** The guard as the services use it: the check, or the 409 that explains it. */
export function requireOperation(operation: DatasetOperation, status: DatasetStatus, runningTypes: readonly TaskType[]): void {
  const check = checkOperation(operation, status, runningTypes);
  if (check.ok) return;
  throw check.reason === 'blocked' ? errors.operationBlocked(operation, check.by) : errors.operationStatus(operation, check.status, OPERATION_FROM[operation]);
}
