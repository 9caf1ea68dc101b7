import type { Readable } from 'node:stream';
import type { ZipFile } from 'yazl';
import type { BlobStore } from '../../adapters/blobs/blob-store.js';

/** Files opened ahead of the one the ZIP writer is on: enough to hide each open's latency, few for flat memory. */
const AHEAD = 32;
/** The largest read: a photo is read in one, with its exact size, instead of 64 KB chunks and a last empty read. */
const READ_BYTES = 1 << 20;

export interface ImageEntry {
  path: string;
  blobHash: string;
  size: number;
  mtime: Date;
}

/** The range and chunk size a file of `size` bytes is read with: the range lets the read stream end without one more read. */
export function readOf(size: number): [{ start: number; end: number } | undefined, number] {
  return size > 0 ? [{ start: 0, end: size - 1 }, Math.min(size, READ_BYTES)] : [undefined, READ_BYTES];
}

/**
 * Copies media files into the archive in order, stored as they are (JPEG and video gain nothing from
 * deflate), with their size known. Each file is opened when it is queued, up to AHEAD ahead of the one
 * yazl is writing, so its turn starts with the file open; its bytes are read only then (readOf), so memory
 * holds one file's chunks, not AHEAD files. (Handing yazl whole buffers would skip its per-entry streams, but
 * yazl keeps each added buffer to the end of the archive, and buffers held while read ahead outlive the
 * young generation: a 1 GB heap for 8,000 images, measured.)
 */
export class ImageEntries {
  private free = AHEAD;
  private readonly waiting: Array<() => void> = [];
  private readonly opened = new Set<Promise<Readable>>();

  constructor(
    private readonly zip: ZipFile,
    private readonly blobs: BlobStore,
  ) {}

  async add(entry: ImageEntry): Promise<void> {
    await this.take();
    const opened = this.blobs.open(entry.blobHash, ...readOf(entry.size));
    opened.catch(() => {});
    this.opened.add(opened);
    this.zip.addReadStreamLazy(entry.path, { compress: false, size: entry.size, mtime: entry.mtime }, (cb: (err: Error | null, stream?: Readable) => void) => {
      this.opened.delete(opened);
      this.release();
      opened.then((stream) => cb(null, stream), (err: Error) => cb(err));
    });
  }

  /** After a failure: files opened for entries yazl never reached are closed, and nothing waits. */
  close(): void {
    for (const opened of this.opened) opened.then((stream) => stream.destroy(), () => {});
    this.opened.clear();
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private async take(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}
