import type { DatasetStatus } from './dataset-status.js';
import type { TaskType } from './tasks.js';

export const EXPORT_FORMATS = ['json', 'parquet', 'csv', 'coco'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What clients see: PENDING until the archive is there (spec 2.4), REJECTED when refused up front. */
export type ExportStatus = 'PENDING' | 'COMPLETED' | 'FAILED' | 'REJECTED';
export type ExportState = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'REJECTED';

export function exportStatus(state: ExportState): ExportStatus {
  return state === 'RUNNING' ? 'PENDING' : state;
}

/**
 * Export needs READY (spec 4.3), and keeps serving the pre-restore data while a restore runs (spec 3.1):
 * the export reads the head version of the moment it starts, which a restore only replaces at its commit.
 */
export function canExport(status: DatasetStatus, runningTypes: readonly TaskType[]): boolean {
  return status === 'READY' || (status === 'READ ONLY' && runningTypes.includes('SNAPSHOT_RESTORE'));
}

/** The metadata file of each format, inside the archive. */
export const METADATA_ENTRY: Record<ExportFormat, string> = {
  json: 'metadata.json',
  parquet: 'metadata.parquet',
  csv: 'metadata.csv',
  coco: 'annotations.json',
};

/** The archive's file name: the caller's, made safe for a header and a file system, ending in .zip. */
export function archiveFileName(requested: string): string {
  const safe = requested
    .trim()
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
    .slice(0, 200);
  const base = safe === '' || safe === '.' || safe === '..' ? 'export' : safe;
  return base.toLowerCase().endsWith('.zip') ? base : `${base}.zip`;
}
