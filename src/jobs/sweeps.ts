import type { Logger } from 'pino';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';
import type { VersionGcRepo } from '../modules/versions/version-gc.repo.js';

/** One pass of a sweep; it throws to count as failed, and the next pass runs all the same. */
export type SweepPass = (signal: AbortSignal) => Promise<void>;

export const SWEEP_NAMES = ['sweep-expired-exports', 'sweep-staging-tables', 'sweep-versions', 'sweep-blobs', 'sweep-summaries'] as const;
export type SweepName = (typeof SWEEP_NAMES)[number];

const BLOB_BATCH = 500;
/** Versions deleted per transaction: each may carry a million rows. */
const VERSION_BATCH = 20;

export interface ExpiredExportsSweepDeps {
  exports: { expire(now: Date): Promise<number> };
  log: Logger;
}

/** Deletes exports past their expiry; their archives go to the blob queue. */
export function expiredExportsSweep(deps: ExpiredExportsSweepDeps): SweepPass {
  return async () => {
    const expired = await deps.exports.expire(new Date());
    if (expired > 0) deps.log.info({ expired }, 'expired exports removed');
  };
}

export interface StagingTablesSweepDeps {
  staging: { sweepStaging(): Promise<number> };
  log: Logger;
}

/** Drops the staging tables of imports no longer active. */
export function stagingTablesSweep(deps: StagingTablesSweepDeps): SweepPass {
  return async () => {
    const tables = await deps.staging.sweepStaging();
    if (tables > 0) deps.log.info({ tables }, 'staging tables of ended imports dropped');
  };
}

export interface VersionsSweepDeps {
  versions: Pick<VersionGcRepo, 'sweep' | 'dropOrphanSets'>;
  /** A version is swept this long after its release at the earliest. */
  graceSeconds: number;
  /** Soft-deleted snapshots are purged (and stop holding their version) after this long. */
  purgeDeletedAfterSeconds: number;
  log: Logger;
}

/** Deletes the versions nothing references (and the media only they held), queueing their blobs, then their field sets. */
export function versionsSweep(deps: VersionsSweepDeps): SweepPass {
  return async (signal) => {
    for (;;) {
      signal.throwIfAborted();
      const now = Date.now();
      const result = await deps.versions.sweep({
        releasedBefore: new Date(now - deps.graceSeconds * 1000),
        purgeDeletedBefore: new Date(now - deps.purgeDeletedAfterSeconds * 1000),
        limit: VERSION_BATCH,
      });
      if (result.versionsDeleted > 0 || result.snapshotsPurged > 0) deps.log.info(result, 'unreferenced versions swept');
      if (result.versionsDeleted < VERSION_BATCH) break;
    }
    const sets = await deps.versions.dropOrphanSets();
    if (sets > 0) deps.log.info({ sets }, 'field sets of swept versions dropped');
  };
}

export interface BlobsSweepDeps {
  queue: Pick<BlobGcRepo, 'takeUnreferenced'>;
  blobs: Pick<BlobStore, 'delete'>;
  /** A queued blob is deleted only after this long, so an upload storing the same bytes meanwhile keeps it. */
  graceSeconds: number;
  log: Logger;
}

/** Deletes the queued blobs nothing references any more. */
export function blobsSweep(deps: BlobsSweepDeps): SweepPass {
  return async (signal) => {
    for (;;) {
      signal.throwIfAborted();
      const hashes = await deps.queue.takeUnreferenced(new Date(Date.now() - deps.graceSeconds * 1000), BLOB_BATCH);
      for (const hash of hashes) await deps.blobs.delete(hash);
      if (hashes.length > 0) deps.log.info({ deleted: hashes.length }, 'unreferenced blobs deleted');
      if (hashes.length < BLOB_BATCH) break;
    }
  };
}

export interface SummariesSweepDeps {
  summariseOneHead(): Promise<boolean>;
  summariseOneHeadFacets(): Promise<boolean>;
  log: Logger;
}

/**
 * Gives the dataset heads written before cluster summaries existed their summaries, and the heads without facet
 * summaries (written before them, or their job lost) theirs, one head per transaction.
 */
export function summariesSweep(deps: SummariesSweepDeps): SweepPass {
  return async (signal) => {
    let heads = 0;
    while (!signal.aborted && (await deps.summariseOneHead())) heads++;
    if (heads > 0) deps.log.info({ heads }, 'cluster summaries written for dataset heads');
    let facets = 0;
    while (!signal.aborted && (await deps.summariseOneHeadFacets())) facets++;
    if (facets > 0) deps.log.info({ heads: facets }, 'facet summaries written for dataset heads');
  };
}
