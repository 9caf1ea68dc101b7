/**
 * This browser's exports of a dataset, kept in sessionStorage: the API lists no past exports, and a reload must
 * still show them and follow the pending ones.
 */

export type ExportFormat = 'json' | 'parquet';

export interface ExportRecord {
  id: string;
  fileName: string;
  format: ExportFormat;
  includeImages: boolean;
  startedAt: string;
}

/** How many exports of a dataset are remembered (the oldest are forgotten first). */
export const KEPT_EXPORTS = 50;

export const exportLogKey = (datasetId: string) => `loupe.exports.${datasetId}`;

function isRecord(value: unknown): value is ExportRecord {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.fileName === 'string' &&
    (r.format === 'json' || r.format === 'parquet') &&
    typeof r.includeImages === 'boolean' &&
    typeof r.startedAt === 'string'
  );
}

/** The remembered exports, newest first; whatever is not a well-formed record is left out. */
export function readExportLog(storage: Pick<Storage, 'getItem'>, datasetId: string): ExportRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(exportLogKey(datasetId)) ?? '[]');
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
}

/** Remembers a started export first in the list and answers the new list. */
export function addToExportLog(storage: Pick<Storage, 'getItem' | 'setItem'>, datasetId: string, record: ExportRecord): ExportRecord[] {
  const list = [record, ...readExportLog(storage, datasetId).filter((r) => r.id !== record.id)].slice(0, KEPT_EXPORTS);
  storage.setItem(exportLogKey(datasetId), JSON.stringify(list));
  return list;
}

/** The file name the form suggests: "<dataset name>-export", in characters a file name keeps everywhere. */
export function suggestedFileName(datasetName: string): string {
  const base = datasetName.trim().replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${base || 'dataset'}-export`;
}

/** Statuses after which an export no longer changes. */
export const isFinished = (status: string) => status === 'COMPLETED' || status === 'FAILED' || status === 'REJECTED';
