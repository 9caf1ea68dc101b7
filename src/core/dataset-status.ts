export const DATASET_STATUSES = ['READY', 'READ ONLY', 'PARTIAL INDEX', 'INDEXING', 'ERROR'] as const;
export type DatasetStatus = (typeof DATASET_STATUSES)[number];

/** Task objects spell dataset states with underscores (spec 2.2). */
export function taskDatasetStatus(status: DatasetStatus): string {
  return status.replaceAll(' ', '_');
}

/** The retired `status` field: clients of the old API saw UPDATING while a dataset was READ ONLY. */
export function legacyStatus(status: DatasetStatus): string {
  return status === 'READ ONLY' ? 'UPDATING' : status.replaceAll(' ', '_');
}
