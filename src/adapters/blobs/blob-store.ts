import type { Readable } from 'node:stream';

export interface PutOptions {
  signal?: AbortSignal;
  /** Rejects with BlobTooLargeError (nothing stored) when the stream exceeds this many bytes. */
  maxBytes?: number;
  /**
   * Called once with the first min(4100, size) bytes before the blob is committed; if it throws, the put
   * is abandoned (nothing stored) and that error is rethrown. May be called when fewer bytes exist (small files).
   */
  inspect?: (head: Buffer) => void;
  /** write() hands back the first min(keepHead, size) bytes as `head`, so a check of the header needs no read of the stored file. */
  keepHead?: number;
}

/** `hash` is the lowercase hex sha256 of the bytes. */
export interface StoredBlob {
  hash: string;
  size: number;
}

export interface WrittenBlob {
  blob: StoredBlob;
  stored: Promise<void>;
  /** The first min(options.keepHead, size) bytes; empty without keepHead. */
  head: Buffer;
}

/** What a presigned download answers with, whatever the object was stored with. */
export interface DownloadLink {
  contentType: string;
  /** The Content-Disposition header, e.g. `attachment; filename="a.zip"`. */
  disposition: string;
  expiresInSeconds: number;
}

/** Bytes handed to `inspect`: enough for every magic-number check we do (file-type's sample size). */
export const INSPECT_HEAD_BYTES = 4100;

export interface BlobStore {
  /**
   * Streams bytes in while hashing; written under a temporary name and renamed to its hash, so a cut
   * stream never leaves a half file. Identical bytes are stored once. The source is destroyed on failure.
   */
  put(source: Readable, options?: PutOptions): Promise<StoredBlob>;
  /**
   * put() in two steps, for many files in one request: resolves once the bytes are hashed and written, with
   * `stored`, which resolves once they are durable under their hash (or rejects, leaving nothing). Until it
   * resolves the blob cannot be opened and must not be recorded. The caller awaits every `stored` it started.
   */
  write(source: Readable, options?: PutOptions): Promise<WrittenBlob>;
  putBuffer(data: Buffer): Promise<StoredBlob>;
  stat(hash: string): Promise<{ size: number } | null>;
  /**
   * Reads the blob, optionally an inclusive byte range, in chunks of up to `chunkBytes` (the store's default
   * when absent); rejects with BlobNotFoundError for unknown hashes.
   */
  open(hash: string, range?: { start: number; end: number }, chunkBytes?: number): Promise<Readable>;
  /**
   * A local file path for tools that need one (sharp, ffmpeg); release() after use (a no-op for the fs
   * store, a temp-file cleanup for remote stores later). The file must not be modified.
   */
  localFile(hash: string): Promise<{ path: string; release(): Promise<void> }>;
  /** Idempotent: deleting an unknown blob is not an error. */
  delete(hash: string): Promise<void>;
  /**
   * A URL the client can fetch the blob from directly, for a store that has one (S3: a presigned GET); downloads
   * redirect there instead of passing the bytes through the API. Absent for the file store.
   */
  downloadLink?(hash: string, link: DownloadLink): Promise<string>;
  /** Removes what failed puts left behind long ago (spooled or temp files); run at startup. Returns how many. */
  cleanTemp(): Promise<number>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`blob exceeds ${limit} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
}

/** A string that cannot be a blob hash: a not-found to callers that map errors to HTTP, and never a path. */
export class InvalidBlobHashError extends BlobNotFoundError {
  override name = 'InvalidBlobHashError';
}

export const isBlobHash = (value: string): boolean => /^[0-9a-f]{64}$/.test(value);

/** Every store calls this before touching its backend with a caller's hash. */
export function assertBlobHash(hash: string): void {
  if (typeof hash !== 'string' || !isBlobHash(hash)) {
    throw new InvalidBlobHashError(`invalid blob hash ${JSON.stringify(String(hash).slice(0, 80))}`);
  }
}
