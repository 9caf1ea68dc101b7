import type { Logger } from 'pino';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';

export interface BlobGcOptions {
  queue: BlobGcRepo;
  blobs: BlobStore;
  log: Logger;
  /** A queued blob is deleted only after this long, so an upload storing the same bytes meanwhile keeps it. */
  graceSeconds: number;
  intervalMs: number;
}

/** Deletes queued blobs that nothing references once their grace period is over; returns a stop function. */
export function startBlobGc(options: BlobGcOptions): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const hashes = await options.queue.takeUnreferenced(new Date(Date.now() - options.graceSeconds * 1000), 500);
        for (const hash of hashes) await options.blobs.delete(hash);
        if (hashes.length > 0) options.log.info({ deleted: hashes.length }, 'unreferenced blobs deleted');
        if (hashes.length < 500) break;
      }
    } catch (err) {
      options.log.warn({ err }, 'blob sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.intervalMs);
  return () => clearInterval(timer);
}
