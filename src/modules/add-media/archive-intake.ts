import { ArchiveRefusedError, type ArchiveEntry, type EntryScreen, type SkippedEntry } from '../../adapters/archives/archive-types.js';
import { NotAnArchiveError, readSpooledArchive } from '../../adapters/archives/spooled-archive.js';
import { BlobTooLargeError, type BlobStore } from '../../adapters/blobs/blob-store.js';
import { HEADER_BYTES } from '../../adapters/media/image-header.js';
import { sniff } from '../../adapters/media/sniff.js';
import type { SpooledFile } from '../../adapters/uploads/spooled-file.js';
import { errors } from '../../core/errors.js';
import type { NewUploadFile } from '../ingestion/ingestion.repo.js';
import { undecodableImage } from '../ingestion/ingestion.service.js';
import { UndecodableImageError, refuseUndecodable } from '../ingestion/media-intake.js';
import type { BlobGcRepo } from '../media/blob-gc.repo.js';

/** How long one archive may take to unpack: a floor for any archive, plus time for its size at a slow disk's pace. */
export interface UnpackDeadline {
  baseSeconds: number;
  bytesPerSecond: number;
}

export const DEFAULT_UNPACK_DEADLINE: UnpackDeadline = { baseSeconds: 10, bytesPerSecond: 4 * 1024 * 1024 };

/** Stored entries whose flush and header check may run while the next entry streams in (as MediaIntake does for files). */
const IN_FLIGHT = 32;

type Outcome = { file: NewUploadFile } | { skip: SkippedEntry; refused?: string };

/**
 * The media entries of one uploaded archive into the blob store, inside the request and within a deadline. An entry's
 * type is sniffed from its first bytes before anything is written, so entries that cannot be media cost no blob.
 */
export class ArchiveIntake {
  /** Every blob written, durable or not yet: what the sweep must look at when the request fails. */
  readonly hashes: string[] = [];
  private readonly outcomes: Promise<Outcome>[] = [];
  private readonly paths = new Set<string>();
  private failed = false;
  /** Set once the deadline has passed: aborts the unpack. */
  private overdue: (() => void) | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly blobGc: Pick<BlobGcRepo, 'queue'>,
    private readonly maxFileBytes: number,
    private readonly deadline: UnpackDeadline = DEFAULT_UNPACK_DEADLINE,
  ) {}

  /** The archive's media in archive order and its skipped entries; throws the catalogue's 400s for a bad archive or one too slow to unpack. */
  async unpack(archive: SpooledFile): Promise<{ files: NewUploadFile[]; skipped: SkippedEntry[] }> {
    const seconds = this.deadline.baseSeconds + archive.size / this.deadline.bytesPerSecond;
    const overdue = errors.archiveRefused(archive.name, `not unpacked within ${Math.ceil(seconds)} seconds; split it into smaller archives`);
    const controller = new AbortController();
    // The deadline bounds the storing of media. Entries the screen skips cost microseconds and are bounded by the
    // entry limit, so an archive of nothing but those gets three times as long to be answered for what it holds.
    const timer = setTimeout(() => {
      this.overdue = () => controller.abort(overdue);
      if (this.hashes.length > 0) this.overdue();
    }, Math.round(seconds * 1000));
    const hardStop = setTimeout(() => controller.abort(overdue), Math.round(seconds * 3000));
    const { signal } = controller;
    let skippedByReader: SkippedEntry[];
    try {
      skippedByReader = await readSpooledArchive(archive, (entry) => this.take(entry, signal), { signal, screen: this.screen });
    } catch (err) {
      await this.settled();
      if (err instanceof NotAnArchiveError) throw errors.notAnArchive(archive.name);
      if (err instanceof ArchiveRefusedError) throw errors.archiveRefused(archive.name, err.message);
      throw err;
    } finally {
      clearTimeout(timer);
      clearTimeout(hardStop);
    }
    const outcomes = await this.outcomesInOrder();
    const files = outcomes.flatMap((o) => ('file' in o ? [o.file] : []));
    // An undecodable image's bytes were stored before its header was read: nothing will reference them.
    const refused = outcomes.flatMap((o) => ('refused' in o && o.refused ? [o.refused] : []));
    if (refused.length > 0) await this.blobGc.queue([...new Set(refused)]);
    if (files.length === 0) throw errors.noMediaInArchive(archive.name);
    return { files, skipped: [...outcomes.flatMap((o) => ('skip' in o ? [o.skip] : [])), ...skippedByReader] };
  }

  /** Waits for every entry still being stored, whatever became of it: before the sweep is told about the hashes. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.outcomes);
  }

  /** Entries that cannot be media are skipped from their first bytes and declared size, before a blob is written. */
  private readonly screen: EntryScreen = ({ size, head }) => {
    const { kind } = sniff(head);
    if (kind === 'archive') return 'an archive inside the archive (not unpacked)';
    if (kind !== 'image' && kind !== 'video') return 'not an image or video';
    return size > this.maxFileBytes ? `larger than ${this.maxFileBytes} bytes` : null;
  };

  private async take(entry: ArchiveEntry, signal: AbortSignal): Promise<void> {
    const skip = (reason: string) => void this.outcomes.push(Promise.resolve({ skip: { path: entry.path, reason } }));
    const sniffed = sniff(entry.head);
    if (sniffed.kind !== 'image' && sniffed.kind !== 'video') return skip('not an image or video');
    // tar appends a changed file under its old name; two media of one name would be two media nobody can tell apart.
    if (this.paths.has(entry.path)) return skip('duplicate path (an earlier entry has it)');
    this.paths.add(entry.path);
    this.overdue?.();
    signal.throwIfAborted();
    // Entries settle about in order: waiting for the one IN_FLIGHT back bounds the descriptors waiting on the disk.
    await this.outcomes[this.outcomes.length - IN_FLIGHT]?.catch(() => undefined);
    if (this.failed) await this.outcomesInOrder();
    let written: Awaited<ReturnType<BlobStore['write']>>;
    try {
      written = await this.blobs.write(entry.stream, { maxBytes: this.maxFileBytes, signal, keepHead: HEADER_BYTES });
    } catch (err) {
      if (err instanceof BlobTooLargeError) return skip(`larger than ${this.maxFileBytes} bytes`);
      throw err;
    }
    const { blob, stored, head } = written;
    this.hashes.push(blob.hash);
    const file: NewUploadFile = { file_name: entry.path, blob_hash: blob.hash, size: blob.size, kind: sniffed.kind, format: sniffed.format, mime: sniffed.mime };
    const outcome = stored
      .then(() => refuseUndecodable(this.blobs, file, head))
      .then(
        (checked): Outcome => ({ file: checked }),
        (err: unknown): Outcome => {
          if (err instanceof UndecodableImageError) return { skip: { path: entry.path, reason: undecodableImage(err).detail }, refused: err.blobHash };
          throw err;
        },
      );
    // Reported in archive order by outcomesInOrder; no further entry is read once one has failed.
    outcome.catch(() => void (this.failed = true));
    this.outcomes.push(outcome);
  }

  /** Rejects with the first entry's failure (a disk error), as if each entry had been finished before the next was read. */
  private async outcomesInOrder(): Promise<Outcome[]> {
    const settled = await Promise.allSettled(this.outcomes);
    return settled.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    });
  }
}
