import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ArchiveBudget } from './archive-budget.js';
import { BlockReader } from './block-reader.js';
import { ArchiveRefusedError, ENTRY_HEAD_BYTES, asRefusal, type EntryScreen, type OnArchiveEntry, type SkippedEntry } from './archive-types.js';
import { deliverEntry, peek } from './deliver-entry.js';
import { judgeEntryPath, reportedPath } from './entry-paths.js';

type ZipVerdict = { path: string } | { skip: string } | { directory: true };

const S_IFMT = 0o170000;
const LOCAL_HEADER_MIN_BYTES = 30;

/**
 * Two passes over the central directory: the first checks every limit and collects the skipped entries
 * before a byte is inflated; the second streams the kept entries to the callback.
 */
export async function readZip(
  filePath: string,
  onEntry: OnArchiveEntry,
  budget: ArchiveBudget,
  options: { signal?: AbortSignal; screen?: EntryScreen } = {},
): Promise<SkippedEntry[]> {
  const { signal, screen } = options;
  const skipped = await planZip(filePath, budget, signal);
  const zip = await openZip(filePath, signal);
  try {
    for await (const entry of zipEntries(zip, signal)) {
      const verdict = judgeZipEntry(entry);
      if (!('path' in verdict)) continue;
      const source = await zip.openReadStreamPromise(entry).catch((error: unknown): Readable => { throw asRefusal(error, signal); });
      const size = entry.uncompressedSize;
      const { head, source: rest } = await peek(source, ENTRY_HEAD_BYTES).catch((error: unknown): never => { throw asRefusal(error, signal); });
      const reason = screen?.({ path: verdict.path, size, head }) ?? null;
      if (reason !== null) {
        source.destroy(); // random access: nothing to read past
        skipped.push({ path: reportedPath(entryName(entry)), reason });
        continue;
      }
      await deliverEntry(rest, { path: verdict.path, size, head }, budget.meter(verdict.path, size), onEntry, signal);
    }
  } finally {
    zip.close();
  }
  return skipped;
}

async function planZip(filePath: string, budget: ArchiveBudget, signal?: AbortSignal): Promise<SkippedEntry[]> {
  const zip = await openZip(filePath, signal);
  try {
    budget.countEntries(zip.entryCount);
    const skipped: SkippedEntry[] = [];
    const spans: Array<[start: number, compressed: number]> = [];
    for await (const entry of zipEntries(zip, signal)) {
      const name = entryName(entry);
      const verdict = judgeZipEntry(entry);
      spans.push([entry.relativeOffsetOfLocalHeader, entry.compressedSize]);
      if ('directory' in verdict) continue;
      if ('skip' in verdict) skipped.push({ path: reportedPath(name), reason: verdict.skip });
      budget.declare(name, entry.uncompressedSize, entry.compressedSize);
    }
    refuseOverlaps(spans, zip.fileSize);
    return skipped;
  } finally {
    zip.close();
  }
}

function judgeZipEntry(entry: Entry): ZipVerdict {
  const verdict = judgeEntryPath(entryName(entry));
  if (!('path' in verdict)) return verdict;
  const fileType = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (fileType === 0o040000) return { directory: true };
  if (fileType === 0o120000) return { skip: 'symbolic link' };
  if (fileType !== 0 && fileType !== 0o100000) return { skip: 'device or special file' };
  if (entry.isEncrypted()) return { skip: 'encrypted' };
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    return { skip: `unsupported compression method ${entry.compressionMethod}` };
  }
  return verdict;
}

/** Decoded here rather than by yauzl, which fails the whole archive on an absolute or `..` name. */
function entryName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

/** Entries that share compressed bytes are the non-recursive zip bomb; honest archives never overlap. */
function refuseOverlaps(spans: Array<[number, number]>, fileSize: number): void {
  spans.sort((a, b) => a[0] - b[0]);
  spans.forEach(([start, compressed], i) => {
    const next = spans[i + 1]?.[0] ?? fileSize;
    if (start + LOCAL_HEADER_MIN_BYTES + compressed > next) throw new ArchiveRefusedError('zip entries overlap (a zip bomb)');
  });
}

async function openZip(filePath: string, signal?: AbortSignal): Promise<ZipFile> {
  signal?.throwIfAborted();
  const options = { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true };
  const reader = await BlockReader.open(filePath);
  return yauzl.fromRandomAccessReaderPromise(reader, reader.size, options).catch((error: unknown): never => {
    reader.close(() => undefined);
    throw asRefusal(error, signal);
  });
}

async function* zipEntries(zip: ZipFile, signal?: AbortSignal): AsyncGenerator<Entry> {
  const entries = zip.eachEntry();
  for (;;) {
    signal?.throwIfAborted();
    const next = await entries.next().catch((error: unknown): never => { throw asRefusal(error, signal); });
    if (next.done) return;
    yield next.value;
  }
}
