import type { Readable } from 'node:stream';
import { type BlobStore } from '../../adapters/blobs/blob-store.js';
import { type HeaderVerdict, checkImageHeader } from '../../adapters/media/image-header.js';
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
  let sniffed: Sniffed | undefined;
  const stored = await blobs.put(stream, {
    maxBytes,
    inspect: (head) => {
      sniffed = sniff(head);
      if (sniffed.kind !== 'image' && sniffed.kind !== 'video') throw new NotMediaError(fileName, sniffed);
    },
  });
  const { kind, format, mime } = sniffed!;
  return { file_name: fileName, blob_hash: stored.hash, size: stored.size, kind: kind as 'image' | 'video', format, mime };
}

/**
 * For uploads, where the client is still there to be told: throws UndecodableImageError for a stored image whose
 * header shows it can never decode (the caller queues its bytes for the sweep). Sources fetched by the worker skip
 * this; processing records such files as failed.
 */
export async function refuseUndecodable(blobs: BlobStore, file: NewUploadFile): Promise<NewUploadFile> {
  if (file.kind !== 'image') return file;
  const local = await blobs.localFile(file.blob_hash);
  const verdict = await checkImageHeader(local.path, file.format, file.size).finally(() => local.release());
  if (verdict) throw new UndecodableImageError(file.file_name, file.blob_hash, verdict);
  return file;
}
