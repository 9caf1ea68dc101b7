import type { DatasetStatus } from './dataset-status.js';
import type { TaskType } from './tasks.js';

/** Operations that change a dataset's media or index, checked before they start (spec 3.1 and 4.7). */
export type DatasetOperation = 'add_media' | 'reindex';

/** The statuses each operation may start from. */
export const OPERATION_FROM: Record<DatasetOperation, readonly DatasetStatus[]> = {
  add_media: ['READY', 'PARTIAL INDEX'],
  reindex: ['PARTIAL INDEX'],
};

/** Running tasks that block each operation: everything that writes the dataset's media or index. */
export const BLOCKED_BY: Record<DatasetOperation, readonly TaskType[]> = {
  add_media: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'SNAPSHOT_RESTORE'],
  reindex: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'SNAPSHOT_RESTORE'],
};

export type OperationCheck = { ok: true } | { ok: false; reason: 'blocked'; by: TaskType } | { ok: false; reason: 'status'; status: DatasetStatus };

/** A running blocker is reported before the status, because it is what explains a READ ONLY status. */
export function checkOperation(operation: DatasetOperation, status: DatasetStatus, runningTypes: readonly TaskType[]): OperationCheck {
  const blocker = runningTypes.find((t) => BLOCKED_BY[operation].includes(t));
  if (blocker) return { ok: false, reason: 'blocked', by: blocker };
  if (!OPERATION_FROM[operation].includes(status)) return { ok: false, reason: 'status', status };
  return { ok: true };
}
