import { sniff } from '../media/sniff.js';
import { ArchiveBudget } from './archive-budget.js';
import {
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveFormat,
  type OnArchiveEntry,
  type ReadArchiveOptions,
  type SkippedEntry,
} from './archive-types.js';
import { readTar } from './tar-reader.js';
import { readZip } from './zip-reader.js';

export {
  ArchiveRefusedError,
  DEFAULT_ARCHIVE_LIMITS,
  type ArchiveEntry,
  type ArchiveFormat,
  type ArchiveLimits,
  type EntryScreen,
  type OnArchiveEntry,
  type ReadArchiveOptions,
  type SkippedEntry,
} from './archive-types.js';

const SNIFFED_FORMATS: Record<string, ArchiveFormat> = { zip: 'zip', tar: 'tar', gzip: 'tar.gz' };

/**
 * The archive format from the leading bytes (pass SNIFF_BYTES of them); the name is consulted only when
 * the bytes say nothing, as with a pre-POSIX tar. Null for anything else, including media files.
 */
export function archiveFormatOf(fileName: string, head: Buffer): ArchiveFormat | null {
  const sniffed = sniff(head);
  if (sniffed.kind === 'archive') return SNIFFED_FORMATS[sniffed.format] ?? null;
  if (sniffed.kind !== 'unknown') return null;
  const name = fileName.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar')) return 'tar';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  return null;
}

/**
 * Calls onEntry for each regular file that `options.screen` lets through, one at a time, in archive order; the callback must consume the
 * entry's stream (whatever it leaves unread is drained after it resolves). Resolves with the skipped
 * entries. Rejects with ArchiveRefusedError for a bomb, a broken limit or a corrupt archive (for tar,
 * possibly after some entries were delivered: the caller discards them), with the signal's reason on
 * abort, and with the callback's own error if it throws.
 */
export async function readArchive(
  filePath: string,
  format: ArchiveFormat,
  onEntry: OnArchiveEntry,
  options: ReadArchiveOptions = {},
): Promise<SkippedEntry[]> {
  const budget = new ArchiveBudget(options.limits ?? DEFAULT_ARCHIVE_LIMITS);
  const { signal, screen } = options;
  if (format === 'zip') return readZip(filePath, onEntry, budget, { signal, screen });
  return readTar(filePath, format === 'tar.gz', onEntry, budget, { signal, screen });
}
