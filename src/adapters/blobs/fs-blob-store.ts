import { createHash, randomUUID } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { checkRange, meteredFile, removeStaleFiles } from './blob-meter.js';
import { BlobNotFoundError, type BlobStore, type PutOptions, type StoredBlob, type WrittenBlob, assertBlobHash } from './blob-store.js';

const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/** Content-addressed blobs on a local disk: `root/ab/cd/<hash>`, uploads in progress in `root/tmp/`. */
export class FsBlobStore implements BlobStore {
  private readonly tempDir: string;
  /**
   * The temp folder once made, and the hash folders known to exist: each mkdir is a thread-pool round trip that the
   * event loop pays for, about 200 a second with 20 uploaders (issue 28, item 10). A folder removed behind the
   * store's back is made again on the ENOENT that follows.
   */
  private tempReady: Promise<void> | null = null;
  private readonly knownDirs = new Set<string>();

  constructor(private readonly root: string) {
    this.tempDir = path.join(root, 'tmp');
  }

  /** Where a blob lives; throws InvalidBlobHashError for anything but 64 lowercase hex digits. */
  pathOf(hash: string): string {
    assertBlobHash(hash);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(source: Readable, options: PutOptions = {}): Promise<StoredBlob> {
    const { blob, stored } = await this.write(source, options);
    await stored;
    return blob;
  }

  async write(source: Readable, options: PutOptions = {}): Promise<WrittenBlob> {
    const temp = await this.tempFile();
    const meter = await meteredFile(source, temp, options, { through: (file) => [new SyncBehind(file)], beforeClose: (file) => file.datasync() }).catch((err: unknown) => {
      if (isNotFound(err)) this.tempReady = null;
      throw err;
    });
    const blob = { hash: meter.hash.digest('hex'), size: meter.size };
    const stored = this.commit(temp, blob.hash, blob.size).catch(async (err: unknown) => {
      await fs.rm(temp, { force: true });
      throw err;
    });
    // Observed by the caller; marked handled so a request that fails first leaves no unhandled rejection behind.
    stored.catch(() => {});
    return { blob, stored, head: meter.keptHead() };
  }

  /**
   * A small blob already in memory (thumbnails, previews, frames), without the stream pipeline a put builds: hashed
   * first, so one already stored whole is not written again; else written, data-synced and committed as put does.
   * The pipeline's streams, abort controller and listeners were most of the event loop's cost of a thumbnail.
   */
  async putBuffer(data: Buffer): Promise<StoredBlob> {
    const blob = { hash: createHash('sha256').update(data).digest('hex'), size: data.length };
    if ((await this.stat(blob.hash))?.size === blob.size) return blob;
    const temp = await this.tempFile();
    try {
      const handle = await fs.open(temp, 'wx').catch(async (err: unknown) => {
        if (!isNotFound(err)) throw err;
        this.tempReady = null; // the temp folder was removed behind the store's back
        await this.tempDirReady();
        return fs.open(temp, 'wx');
      });
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await this.commit(temp, blob.hash, blob.size);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    return blob;
  }

  /** A fresh name in the temp folder, the folder made on first use. */
  private async tempFile(): Promise<string> {
    await this.tempDirReady();
    return path.join(this.tempDir, `${randomUUID()}.part`);
  }

  private async tempDirReady(): Promise<void> {
    this.tempReady ??= fs.mkdir(this.tempDir, { recursive: true }).then(() => {});
    await this.tempReady.catch((err: unknown) => {
      this.tempReady = null;
      throw err;
    });
  }

  /** The temp file, its bytes already on disk (meteredFile's data sync), takes its name: a blob's final name never points at bytes still in cache. */
  private async commit(temp: string, hash: string, size: number): Promise<void> {
    const final = this.pathOf(hash);
    const existing = await this.stat(hash);
    // Same hash and size means same bytes; a different size can only be a damaged copy, which we replace.
    if (existing?.size === size) {
      await fs.unlink(temp);
      return;
    }
    const dir = path.dirname(final);
    if (!this.knownDirs.has(dir)) await fs.mkdir(dir, { recursive: true });
    await fs.rename(temp, final).catch(async (err: unknown) => {
      if (!isNotFound(err) || !this.knownDirs.delete(dir)) throw err;
      await fs.mkdir(dir, { recursive: true });
      await fs.rename(temp, final);
    });
    this.knownDirs.add(dir);
    await syncDir(dir);
  }

  async stat(hash: string): Promise<{ size: number } | null> {
    try {
      const info = await fs.stat(this.pathOf(hash));
      return { size: info.size };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async open(hash: string, range?: { start: number; end: number }, chunkBytes?: number): Promise<Readable> {
    const file = this.pathOf(hash);
    if (range) checkRange(range);
    // Opening first turns a missing blob into a rejection here rather than a stream error later.
    const handle = await fs.open(file, 'r').catch((err: unknown) => {
      throw isNotFound(err) ? new BlobNotFoundError(`blob ${hash} not found`) : err;
    });
    return handle.createReadStream({ ...(range ? { start: range.start, end: range.end } : {}), ...(chunkBytes ? { highWaterMark: chunkBytes } : {}) });
  }

  async localFile(hash: string): Promise<{ path: string; release(): Promise<void> }> {
    const file = this.pathOf(hash);
    if (!(await this.stat(hash))) throw new BlobNotFoundError(`blob ${hash} not found`);
    return { path: file, release: async () => {} };
  }

  async delete(hash: string): Promise<void> {
    await fs.rm(this.pathOf(hash), { force: true });
  }

  /** Removes temp files a crash left behind; run at startup. Returns how many were removed. */
  cleanTemp(maxAgeMs = TEMP_MAX_AGE_MS, now = Date.now()): Promise<number> {
    return removeStaleFiles(this.tempDir, maxAgeMs, now);
  }
}

/** Bytes passed on between two data syncs of a blob being stored: see SyncBehind. */
const SYNC_BYTES = 32 << 20;

/**
 * Passes bytes on to `file` and has the disk take them as they come: every SYNC_BYTES a data sync of what is written
 * so far starts (one at a time) while the stream goes on, so the sync before the rename is left only the last few
 * megabytes. Without it the page cache held a whole archive until that sync: 0.56 s of a 2.3 s export of 260 MB.
 */
class SyncBehind extends Transform {
  private unsynced = 0;
  private syncing: Promise<void> | null = null;

  constructor(private readonly file: FileHandle) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.unsynced += chunk.length;
    if (this.unsynced >= SYNC_BYTES && !this.syncing) {
      this.unsynced = 0;
      // A failed early sync loses nothing: the sync before the rename still checks every byte.
      this.syncing = this.file.datasync().then(
        () => void (this.syncing = null),
        () => void (this.syncing = null),
      );
    }
    done(null, chunk);
  }

  /** The file is closed after this: no sync may still be running on it then. */
  override _flush(done: TransformCallback): void {
    if (!this.syncing) return done();
    this.syncing.then(() => done(), done);
  }
}

/** A rename is only durable once its directory entry is on disk too. */
async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isNotFound(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
