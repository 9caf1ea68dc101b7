import type { Logger } from 'pino';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';
import type { VersionGcRepo } from '../modules/versions/version-gc.repo.js';

export interface BlobGcOptions {
  queue: BlobGcRepo;
  blobs: BlobStore;
  log: Logger;
  /** A queued blob is deleted only after this long, so an upload storing the same bytes meanwhile keeps it. */
  graceSeconds: number;
  /** Unreferenced versions (and the media only they held) are swept first, queueing their blobs. */
  versions: { repo: VersionGcRepo; graceSeconds: number; purgeDeletedAfterSeconds: number };
  /** Expired exports are deleted first, their archives queued. */
  exports: { expire(now: Date): Promise<number> };
  /** Staging tables of imports no longer active are dropped first. */
  staging: { sweepStaging(): Promise<number> };
  intervalMs: number;
}

const BATCH = 500;
/** Versions deleted per transaction: each may carry a million rows. */
const VERSION_BATCH = 20;

/** The garbage sweep: expired exports, staging tables of ended imports, unreferenced versions, then queued blobs nothing references; returns a stop function. */
export function startBlobGc(options: BlobGcOptions): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const expired = await options.exports.expire(new Date());
      if (expired > 0) options.log.info({ expired }, 'expired exports removed');
      const staging = await options.staging.sweepStaging();
      if (staging > 0) options.log.info({ tables: staging }, 'staging tables of ended imports dropped');
      await sweepVersions(options);
      for (;;) {
        const hashes = await options.queue.takeUnreferenced(new Date(Date.now() - options.graceSeconds * 1000), BATCH);
        for (const hash of hashes) await options.blobs.delete(hash);
        if (hashes.length > 0) options.log.info({ deleted: hashes.length }, 'unreferenced blobs deleted');
        if (hashes.length < BATCH) break;
      }
    } catch (err) {
      options.log.warn({ err }, 'garbage sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.intervalMs);
  return () => clearInterval(timer);
}

async function sweepVersions(options: BlobGcOptions): Promise<void> {
  const { repo, graceSeconds, purgeDeletedAfterSeconds } = options.versions;
  for (;;) {
    const now = Date.now();
    const result = await repo.sweep({
      releasedBefore: new Date(now - graceSeconds * 1000),
      purgeDeletedBefore: new Date(now - purgeDeletedAfterSeconds * 1000),
      limit: VERSION_BATCH,
    });
    if (result.versionsDeleted > 0 || result.snapshotsPurged > 0) options.log.info(result, 'unreferenced versions swept');
    if (result.versionsDeleted < VERSION_BATCH) break;
  }
  const sets = await repo.dropOrphanSets();
  if (sets > 0) options.log.info({ sets }, 'field sets of swept versions dropped');
}
