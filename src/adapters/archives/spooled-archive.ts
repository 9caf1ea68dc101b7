import { open } from 'node:fs/promises';
import { SNIFF_BYTES } from '../media/sniff.js';
import type { SpooledFile } from '../uploads/spooled-file.js';
import { archiveFormatOf, readArchive } from './archive-reader.js';
import type { OnArchiveEntry, ReadArchiveOptions, SkippedEntry } from './archive-types.js';

/** The uploaded file is neither a zip nor a tar nor a tar.gz, by its first bytes (or its name when they say nothing). */
export class NotAnArchiveError extends Error {
  constructor(readonly fileName: string) {
    super(`${fileName} is not an archive`);
  }
}

/**
 * Sniffs an uploaded archive's format and hands each regular entry to `onEntry` (see readArchive);
 * rejects with NotAnArchiveError before any entry for a file that is no archive, ArchiveRefusedError for a bomb or a corrupt one.
 */
export async function readSpooledArchive(file: SpooledFile, onEntry: OnArchiveEntry, options: ReadArchiveOptions = {}): Promise<SkippedEntry[]> {
  const handle = await open(file.path, 'r');
  const head = Buffer.alloc(SNIFF_BYTES);
  let bytesRead = 0;
  try {
    ({ bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0));
  } finally {
    await handle.close();
  }
  const format = archiveFormatOf(file.name, head.subarray(0, bytesRead));
  if (!format) throw new NotAnArchiveError(file.name);
  return readArchive(file.path, format, onEntry, options);
}
