import type { SnapshotsRepo } from '../modules/snapshots/snapshots.repo.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition } from './registry.js';

export interface SnapshotJobDeps {
  snapshots: SnapshotsRepo;
  versions: VersionsRepo;
}

/**
 * SNAPSHOT_RESTORE: the snapshot's sealed version becomes the dataset's head, with its counts, in the
 * commit transaction: a crash before it leaves the dataset as it was, and the rerun restores it. O(1).
 */
export function snapshotRestoreJob(deps: SnapshotJobDeps): JobDefinition {
  return {
    type: 'SNAPSHOT_RESTORE',
    async handler(ctx) {
      const snapshot = await deps.snapshots.find(ctx.datasetId, String(ctx.config.snapshot_id));
      if (!snapshot) throw new Error(`Snapshot ${String(ctx.config.snapshot_id)} no longer exists`);
      await ctx.progress(50, `Restoring snapshot ${snapshot.name}`);
      await ctx.commit(async (trx) => {
        if (!(await deps.snapshots.hold(trx, snapshot.id))) throw new Error(`Snapshot ${snapshot.id} no longer exists`);
        await deps.versions.swapHead(trx, ctx.datasetId, snapshot.version_id, { n_images: snapshot.n_images, n_videos: snapshot.n_videos, n_objects: snapshot.n_objects });
        await deps.snapshots.setCurrent(trx, ctx.datasetId, snapshot.id);
      }, `Restored snapshot ${snapshot.name}`);
    },
  };
}
