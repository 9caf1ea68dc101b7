import type { EmbeddingConfig } from '../adapters/db/schema.js';
import type { IndexingRepo } from '../modules/indexing/indexing.repo.js';
import type { ViewsRepo } from '../modules/views/views.repo.js';
import type { EnrichmentRepo } from '../modules/enrichment/enrichment.repo.js';
import type { SnapshotJobDeps } from './snapshot-restore.job.js';
import type { JobDefinition } from './registry.js';

export interface SnapshotCloneDeps extends SnapshotJobDeps {
  indexing: IndexingRepo;
  views: Pick<ViewsRepo, 'copyAll'>;
  enrichment: Pick<EnrichmentRepo, 'copyApplied'>;
}

/**
 * SNAPSHOT_CLONE, on the new dataset: its head becomes the snapshot's sealed version (shared, never
 * copied: a later change on either side forks its own), with the source's embedding config, a first
 * snapshot with reason `clone`, and the source's saved views (views belong to a dataset, not to a
 * version: the clone gets the source's views as they are now); all in the commit transaction, so a crash
 * leaves the clone empty or whole.
 */
export function snapshotCloneJob(deps: SnapshotCloneDeps): JobDefinition {
  return {
    type: 'SNAPSHOT_CLONE',
    async handler(ctx) {
      const versionId = String(ctx.config.version_id);
      const counts = { n_images: Number(ctx.config.n_images), n_videos: Number(ctx.config.n_videos), n_objects: Number(ctx.config.n_objects ?? 0) };
      await ctx.progress(50, 'Cloning snapshot');
      await ctx.commit(async (trx) => {
        // The version is held by this task's config even if the snapshot or its dataset is deleted meanwhile.
        await deps.snapshots.hold(trx, String(ctx.config.snapshot_id));
        await deps.versions.swapHead(trx, ctx.datasetId, versionId, counts);
        const embedding = ctx.config.embedding_config as EmbeddingConfig | null;
        if (embedding) await deps.indexing.setEmbeddingConfig(trx, ctx.datasetId, embedding);
        await deps.snapshots.record(trx, { datasetId: ctx.datasetId, createdBy: ctx.createdBy, reason: 'clone' });
        await deps.views.copyAll(trx, String(ctx.config.source_dataset_id), ctx.datasetId, ctx.createdBy);
        await deps.enrichment.copyApplied(trx, String(ctx.config.source_dataset_id), ctx.datasetId);
      }, 'Snapshot cloned into this dataset');
    },
  };
}
