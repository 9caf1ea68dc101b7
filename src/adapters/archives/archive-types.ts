import type { Readable } from 'node:stream';
import { SNIFF_BYTES } from '../media/sniff.js';

export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

export interface ArchiveLimits {
  /** Every entry counts, directories and skipped ones included. */
  maxEntries: number;
  /** Sum of the uncompressed sizes of all non-directory entries. */
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** Uncompressed over compressed bytes: per entry for zip, over the whole stream for tar.gz. */
  maxCompressionRatio: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 64 * 1024 ** 3,
  maxEntryBytes: 16 * 1024 ** 3,
  maxCompressionRatio: 200,
};

/** Small data compresses too well to judge (a run of padding, a text file): ratios apply above this. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ArchiveEntry {
  /** Relative, forward slashes, no empty, `.` or `..` segments; keeps the archive's folders. */
  path: string;
  /** The size the archive declares; the stream fails with ArchiveRefusedError if the bytes disagree. */
  size: number;
  /** The entry's first ENTRY_HEAD_BYTES (all of it when shorter); `stream` still starts at its first byte. */
  head: Buffer;
  stream: Readable;
}

/** Enough of an entry's start to tell its type by magic numbers. */
export const ENTRY_HEAD_BYTES = SNIFF_BYTES;

/**
 * Judges an entry from its name, declared size and first bytes before it is delivered: the reason to skip it, or
 * null to deliver it. A skipped entry costs no stream and no callback, which is what keeps an archive of a hundred
 * thousand tiny non-media entries cheap.
 */
export type EntryScreen = (entry: { path: string; size: number; head: Buffer }) => string | null;

export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface ReadArchiveOptions {
  limits?: ArchiveLimits;
  screen?: EntryScreen;
  signal?: AbortSignal;
}

export type OnArchiveEntry = (entry: ArchiveEntry) => Promise<void>;

/** A bomb, a broken limit or a corrupt archive: the caller answers 400 and discards whatever it extracted. */
export class ArchiveRefusedError extends Error {
  override name = 'ArchiveRefusedError';
}

/** Library errors (yauzl, zlib, tar-stream) become refusals; ours and the abort reason pass through. */
export function asRefusal(error: unknown, signal?: AbortSignal): unknown {
  if (error instanceof ArchiveRefusedError) return error;
  if (signal?.aborted) return signal.reason;
  const message = error instanceof Error ? error.message : String(error);
  return new ArchiveRefusedError(`corrupt archive: ${message.split('\n')[0]}`);
}
