import { createHash } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, INSPECT_HEAD_BYTES, type PutOptions } from './blob-store.js';

/** What every store does to the bytes of a put on their way in (hashed, counted, inspected, into a local file), whatever it keeps them in. */

/** What a store adds to meteredFile: streams between the meter and the file, and work on the file before it closes. */
export interface FileSteps {
  through?(file: FileHandle): Transform[];
  /** Runs once every byte is written, on the still open file (a data sync: no second open to reach the bytes). */
  beforeClose?(file: FileHandle): Promise<void>;
}

/**
 * Streams `source` through a Meter (and what `steps` adds) into the new file `file`; on failure the file is removed and
 * the error rethrown (the signal's reason when it was aborted). Returns the meter: hash and size.
 */
export async function meteredFile(source: Readable, file: string, options: PutOptions, steps: FileSteps = {}): Promise<Meter> {
  const { signal } = options;
  const meter = new Meter(options.maxBytes ?? Infinity, options.inspect, options.keepHead);
  const handle = await fs.open(file, 'wx');
  // Left open when it finishes, so beforeClose can still sync the file; destroying it then closes the handle, whose
  // close() would otherwise wait for the stream forever.
  const out = handle.createWriteStream({ autoClose: false });
  const close = async () => {
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
    await handle.close();
  };
  try {
    await pipeline([source, meter, ...(steps.through?.(handle) ?? []), out], signal ? { signal } : {});
    signal?.throwIfAborted();
    await steps.beforeClose?.(handle);
    await close();
  } catch (err) {
    await close().catch(() => {});
    await fs.rm(file, { force: true });
    // pipeline wraps the reason in an AbortError; callers compare against what they aborted with.
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
  return meter;
}

/** Removes the files of `dir` older than `maxAgeMs` (what crashed puts left); a missing folder has none. Returns how many. */
export async function removeStaleFiles(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  const names = await fs.readdir(dir).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  });
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await fs.stat(file).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
      await fs.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** Passes bytes through while hashing, counting, enforcing the size limit and collecting the head. */
export class Meter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private inspected = false;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly inspect?: (head: Buffer) => void,
    private readonly keepHead = 0,
  ) {
    super();
  }

  /** The first min(keepHead, size) bytes that passed. */
  keptHead(): Buffer {
    return Buffer.concat(this.kept).subarray(0, this.keepHead);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    if (this.keptBytes < this.keepHead) {
      this.kept.push(chunk);
      this.keptBytes += chunk.length;
    }
    if (this.inspect && !this.inspected) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes >= INSPECT_HEAD_BYTES) {
        const err = this.runInspect();
        if (err) return done(err);
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.runInspect());
  }

  private runInspect(): Error | null {
    if (!this.inspect || this.inspected) return null;
    this.inspected = true;
    const head = Buffer.concat(this.head).subarray(0, INSPECT_HEAD_BYTES);
    this.head = [];
    try {
      this.inspect(head);
      return null;
    } catch (err) {
      return err as Error;
    }
  }
}

export function checkRange({ start, end }: { start: number; end: number }): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
}

