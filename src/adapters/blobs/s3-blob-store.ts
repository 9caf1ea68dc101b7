import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkRange, meteredFile, removeStaleFiles } from './blob-meter.js';
import { BlobNotFoundError, type BlobStore, type DownloadLink, type PutOptions, type StoredBlob, type WrittenBlob, assertBlobHash } from './blob-store.js';

/** A bucket and the folder in it that holds the blobs (`''` or ending in '/'), from BLOB_URL=s3://bucket/prefix. */
export interface S3BlobLocation {
  bucket: string;
  prefix: string;
}

const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;

/** Multipart upload parts: S3's 10,000-part limit puts 80 GB at this size; bigger blobs get bigger parts. */
const PART_BYTES = 8 << 20;
const MAX_PARTS = 10_000;
/** Parts of one blob in flight at once: each is held in memory while it is sent. */
const PARTS_IN_FLIGHT = 4;

/**
 * Content-addressed blobs in an S3 bucket: `prefix/ab/cd/<hash>`, the layout of the file store. A put spools the
 * bytes to a local file while hashing them (the key is the hash, known only at the end), then uploads that file
 * under its key, multipart when large, unless the bucket already holds those bytes. So a blob appears under its
 * key whole or not at all, no object is ever copied or renamed in the bucket, and a failed put leaves at most a
 * local file (removed) or an incomplete multipart upload (aborted, or expired by a bucket lifecycle rule).
 * `write` returns once the bytes are spooled and hashed; `stored` once S3 has them.
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly location: S3BlobLocation,
    /** A local folder for spooled uploads and local copies (localFile); nothing in it outlives its use. */
    private readonly spoolDir: string,
  ) {}

  /** The object key of a blob; throws InvalidBlobHashError for anything but 64 lowercase hex digits. */
  keyOf(hash: string): string {
    assertBlobHash(hash);
    return `${this.location.prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  async put(source: Readable, options: PutOptions = {}): Promise<StoredBlob> {
    const { blob, stored } = await this.write(source, options);
    await stored;
    return blob;
  }

  async write(source: Readable, options: PutOptions = {}): Promise<WrittenBlob> {
    const { signal } = options;
    const spooled = await this.spool(source, options);
    const blob = { hash: spooled.hash, size: spooled.size };
    const stored = this.upload(spooled.file, blob, signal).finally(() => fs.rm(spooled.file, { force: true }));
    // Observed by the caller; marked handled so a request that fails first leaves no unhandled rejection behind.
    stored.catch(() => {});
    return { blob, stored, head: spooled.head };
  }

  putBuffer(data: Buffer): Promise<StoredBlob> {
    return this.put(Readable.from([data]));
  }

  async stat(hash: string): Promise<{ size: number } | null> {
    const key = this.keyOf(hash);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async open(hash: string, range?: { start: number; end: number }, chunkBytes?: number): Promise<Readable> {
    const key = this.keyOf(hash);
    if (range) checkRange(range);
    const output = await this.client
      .send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
      .catch((err: unknown) => {
        throw isMissing(err) ? new BlobNotFoundError(`blob ${hash} not found`) : err;
      });
    const body = output.Body;
    if (!(body instanceof Readable)) throw new Error(`blob ${hash}: the S3 response has no body stream`);
    const served = servedRange(output.ContentRange);
    // A server may answer a range whole (HTTP allows it; s3rver does for bytes=0-0): cut what was asked for out of it.
    const trim = range && (served?.start !== range.start || served.end !== range.end) ? new Slice(range.start - (served?.start ?? 0), range.end - range.start + 1) : null;
    const stages: Transform[] = [];
    if (trim) stages.push(trim);
    if (chunkBytes) stages.push(new Rechunk(chunkBytes));
    if (stages.length === 0) return body;
    // Errors reach the reader through the last stage, which pipeline destroys with them.
    pipeline([body, ...stages]).catch(() => {});
    return stages.at(-1)!;
  }

  async localFile(hash: string): Promise<{ path: string; release(): Promise<void> }> {
    this.keyOf(hash);
    const file = await this.spoolFile('local');
    try {
      await pipeline(await this.open(hash), createWriteStream(file, { flags: 'wx' }));
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return { path: file, release: () => fs.rm(file, { force: true }) };
  }

  async delete(hash: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(hash) }));
  }

  /**
   * A presigned GET of the blob for `expiresInSeconds`, answering with the given content type and as an attachment of
   * that file name (the download's own headers, whatever the object was stored with).
   */
  downloadLink(hash: string, link: DownloadLink): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.location.bucket,
      Key: this.keyOf(hash),
      ResponseContentType: link.contentType,
      ResponseContentDisposition: link.disposition,
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.max(1, Math.ceil(link.expiresInSeconds)) });
  }

  /** Removes spooled files a crash left behind; run at startup. Returns how many were removed. */
  cleanTemp(maxAgeMs = SPOOL_MAX_AGE_MS, now = Date.now()): Promise<number> {
    return removeStaleFiles(this.spoolDir, maxAgeMs, now);
  }

  /** Fails with a message naming the bucket when it cannot be listed with these credentials (checked at startup). */
  async check(): Promise<void> {
    const { bucket, prefix } = this.location;
    try {
      await this.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, MaxKeys: 1 }));
    } catch (err) {
      throw new Error(`BLOB_URL: cannot list s3://${bucket}/${prefix}: ${(err as Error).name}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** A new name in the spool folder: `part` for a put being spooled, `local` for a copy handed out by localFile. */
  private async spoolFile(kind: 'part' | 'local'): Promise<string> {
    await fs.mkdir(this.spoolDir, { recursive: true });
    return path.join(this.spoolDir, `${randomUUID()}.${kind}`);
  }

  /** The source's bytes into a local file, hashed, counted and inspected on the way; nothing left when it fails. */
  private async spool(source: Readable, options: PutOptions): Promise<{ file: string; hash: string; size: number; head: Buffer }> {
    const file = await this.spoolFile('part');
    const meter = await meteredFile(source, file, options);
    return { file, hash: meter.hash.digest('hex'), size: meter.size, head: meter.keptHead() };
  }

  /** The spooled file under the blob's key, unless the bucket holds those bytes already (same hash, same size). */
  private async upload(file: string, blob: StoredBlob, signal?: AbortSignal): Promise<void> {
    if ((await this.stat(blob.hash))?.size === blob.size) return;
    const partSize = Math.max(PART_BYTES, Math.ceil(blob.size / MAX_PARTS));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.keyOf(blob.hash), Body: createReadStream(file, { highWaterMark: 1 << 20 }), ContentLength: blob.size },
      partSize,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const abort = () => void upload.abort().catch(() => {});
    signal?.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw err;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }
}

/** BLOB_URL's bucket and prefix; null when it names no S3 location. Prefix characters are limited to keep keys plain. */
export function parseBlobUrl(value: string): S3BlobLocation | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._\-/]*))?$/.exec(value.trim());
  if (!match) return null;
  const folder = (match[2] ?? '').replace(/\/+/g, '/').replace(/^\//, '');
  return { bucket: match[1]!, prefix: folder === '' || folder.endsWith('/') ? folder : `${folder}/` };
}

/** Not found, as GetObject (NoSuchKey) and HeadObject (a bare 404) each say it. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The `bytes start-end/size` of a ranged answer; null when the answer is the whole object. */
function servedRange(contentRange: string | undefined): { start: number; end: number } | null {
  const match = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  return match ? { start: Number(match[1]), end: Number(match[2]) } : null;
}

/** Skips `skip` bytes, then passes on the next `left` and drops the rest. */
class Slice extends Transform {
  constructor(
    private skip: number,
    private left: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let part = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, part.length);
      part = part.subarray(skipped);
      this.skip -= skipped;
    }
    if (this.left > 0 && part.length > 0) {
      const kept = part.subarray(0, this.left);
      this.left -= kept.length;
      this.push(kept);
    }
    done();
  }
}

/**
 * Passes bytes on in chunks of exactly `size` (the last one shorter), as a reader that asks for a chunk size expects.
 * Each chunk is its own read (object mode out): a byte-mode stream would hand a reader all it holds at once.
 */
class Rechunk extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly size: number) {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= this.size) {
      let all = Buffer.concat(this.pending);
      while (all.length >= this.size) {
        this.push(all.subarray(0, this.size));
        all = all.subarray(this.size);
      }
      this.pending = all.length > 0 ? [all] : [];
      this.pendingBytes = all.length;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pendingBytes > 0) this.push(Buffer.concat(this.pending));
    done();
  }
}
