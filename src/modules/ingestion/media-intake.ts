import type { Readable } from 'node:stream';
import { type BlobStore } from '../../adapters/blobs/blob-store.js';
import { HEADER_BYTES, type HeaderVerdict, checkImageHeader } from '../../adapters/media/image-header.js';
import { type Sniffed, sniff } from '../../adapters/media/sniff.js';
import type { NewUploadFile } from './ingestion.repo.js';

/** Why a file was not taken: its first bytes say it is neither an image nor a video we decode (or an archive). */
export class NotMediaError extends Error {
  constructor(
    readonly fileName: string,
    readonly sniffed: Sniffed,
  ) {
    super(sniffed.kind === 'archive' ? `${fileName} is an archive` : `${fileName} is not a supported image or video`);
  }
}

/** Why a stored image was refused: its header already shows it can never decode. Its bytes are stored under `blobHash`. */
export class UndecodableImageError extends Error {
  constructor(
    readonly fileName: string,
    readonly blobHash: string,
    readonly verdict: HeaderVerdict,
  ) {
    super(`${fileName}: ${verdict.problem}`);
  }
}

/**
 * Streams one file into the blob store, deciding its type from its first bytes (the name is never
 * consulted); a non-media file is refused before anything is stored. Throws BlobTooLargeError past `maxBytes`.
 */
export async function storeMedia(blobs: BlobStore, stream: Readable, fileName: string, maxBytes: number): Promise<NewUploadFile> {
  const { file, stored } = await writeMedia(blobs, stream, fileName, maxBytes);
  await stored;
  return file;
}

/** storeMedia in two steps, as BlobStore.write: the file once its bytes are written, and `stored` once they are durable. */
async function writeMedia(blobs: BlobStore, stream: Readable, fileName: string, maxBytes: number): Promise<{ file: NewUploadFile; stored: Promise<void>; head: Buffer }> {
  let sniffed: Sniffed | undefined;
  const { blob, stored, head } = await blobs.write(stream, {
    maxBytes,
    keepHead: HEADER_BYTES,
    inspect: (head) => {
      sniffed = sniff(head);
      if (sniffed.kind !== 'image' && sniffed.kind !== 'video') throw new NotMediaError(fileName, sniffed);
    },
  });
  const { kind, format, mime } = sniffed!;
  return { file: { file_name: fileName, blob_hash: blob.hash, size: blob.size, kind: kind as 'image' | 'video', format, mime }, stored, head };
}

/** Files of one request being flushed and checked at once; each holds a file descriptor until the disk has it. */
const IN_FLIGHT = 32;

/**
 * The files of one upload request, stored as they stream in. A file's flush to disk, its rename into place and its
 * header check run while the next file streams in: a thousand small files waited on a thousand flushes in turn
 * (≈ 5 ms each on this disk, 5 s a request). Failures still come out in file order, as if each file had been
 * finished before the next was read, and no further file is read once one has failed.
 */
export class MediaIntake {
  /** Every blob written, durable or not yet: what the sweep must look at when the request fails. */
  readonly hashes: string[] = [];
  /** Bytes written so far, for the request's limit. */
  bytes = 0;
  private readonly checked: Promise<NewUploadFile>[] = [];
  private failed = false;

  constructor(private readonly blobs: BlobStore) {}

  /** Streams one file in; rejects for this file (NotMediaError, BlobTooLargeError) or for an earlier one that failed since. */
  async add(stream: Readable, fileName: string, maxBytes: number): Promise<void> {
    // Files settle about in order: waiting for the one IN_FLIGHT back bounds the descriptors waiting on the disk.
    await this.checked[this.checked.length - IN_FLIGHT]?.catch(() => {});
    if (this.failed) await this.files();
    let written: Awaited<ReturnType<typeof writeMedia>>;
    try {
      written = await writeMedia(this.blobs, stream, fileName, maxBytes);
    } catch (err) {
      await this.files();
      throw err;
    }
    const { file, stored, head } = written;
    this.hashes.push(file.blob_hash);
    this.bytes += file.size;
    const checked = stored.then(() => refuseUndecodable(this.blobs, file, head));
    checked.catch(() => {
      this.failed = true;
    });
    this.checked.push(checked);
  }

  /** Every file durable and checked, in order; rejects with the first file's failure (UndecodableImageError or a disk error). */
  async files(): Promise<NewUploadFile[]> {
    const settled = await Promise.allSettled(this.checked);
    return settled.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    });
  }

  /** Waits for every file still being stored, whatever became of it: before the sweep is told about the hashes. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.checked);
  }
}

/**
 * For uploads, where the client is still there to be told: throws UndecodableImageError for a stored image whose
 * header shows it can never decode (the caller queues its bytes for the sweep). Sources fetched by the worker skip
 * this; processing records such files as failed.
 */
export async function refuseUndecodable(blobs: BlobStore, file: NewUploadFile, head: Buffer = Buffer.alloc(0)): Promise<NewUploadFile> {
  if (file.kind !== 'image') return file;
  const verdict = await checkImageHeader({ head, size: file.size, localFile: () => blobs.localFile(file.blob_hash) }, file.format);
  if (verdict) throw new UndecodableImageError(file.file_name, file.blob_hash, verdict);
  return file;
}
