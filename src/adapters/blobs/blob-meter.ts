import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError, INSPECT_HEAD_BYTES } from './blob-store.js';

/** What every store does to the bytes of a put on their way in, whatever it writes them to. */

/** Passes bytes through while hashing, counting, enforcing the size limit and collecting the head. */
export class Meter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private inspected = false;

  constructor(
    private readonly maxBytes: number,
    private readonly inspect?: (head: Buffer) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
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

