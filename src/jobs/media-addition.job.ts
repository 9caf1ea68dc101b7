import type { AddMediaRepo } from '../modules/add-media/add-media.repo.js';
import { attachNewMedia } from '../modules/indexing/partial-indexer.js';
import { indexVersion } from '../modules/indexing/version-indexer.js';
import { fetchStage } from './fetch-stage.js';
import { type PipelineDeps, type PipelineRun, type PipelineStage, mediaStage, prepareVersion, requireUsableMedia, runStages } from './pipeline.js';
import type { JobDefinition } from './registry.js';

export interface MediaAdditionDeps extends PipelineDeps {
  addMedia: AddMediaRepo;
}

/** PARTIAL INDEX: the batch's media join the head's copy, each attached to its nearest existing clusters. */
const attachStage: PipelineStage = {
  name: 'attach',
  weight: 1,
  async run(run, progress) {
    await requireUsableMedia(run);
    await attachNewMedia(run.deps, await prepareVersion(run), run.ctx.signal, progress);
  },
};

/** With auto_reindex: the whole version is indexed again (graph, clusters, scores), the dataset INDEXING meanwhile. */
export const reindexStage: PipelineStage = {
  name: 'reindex',
  weight: 1,
  async run(run, progress) {
    const versionId = run.versionId ?? (await prepareVersion(run));
    const { ctx, deps } = run;
    await deps.lifecycle.indexing(deps.db, { dataset_id: ctx.datasetId, task_type: ctx.taskType, config: ctx.config });
    await indexVersion(deps, versionId, ctx.signal, progress);
  },
};

/**
 * MEDIA_ADDITION: fetch (bucket or folder sources), process and embed the batch, attach it, optionally
 * reindex, all in the task's own version; the commit makes it the head (PARTIAL INDEX, or READY after a
 * reindex) and records the batch for alerts. A failure leaves the head and the status as they were.
 */
export function mediaAdditionJob(deps: MediaAdditionDeps): JobDefinition {
  return {
    type: 'MEDIA_ADDITION',
    async handler(ctx) {
      const autoReindex = ctx.config.auto_reindex === true;
      const limit = Number(ctx.config.batch_n_images) || undefined;
      // Without a reindex the batch adds rows and touches a few duplicate groups: its version holds just that.
      const run: PipelineRun = {
        ctx,
        deps,
        transId: Number(ctx.config.trans_id),
        notes: [],
        concurrency: limit ? Math.min(limit, deps.concurrency) : undefined,
        fork: autoReindex ? 'full' : 'delta',
      };
      await runStages(run, [fetchStage, mediaStage, attachStage, ...(autoReindex ? [reindexStage] : [])]);
      const { usable, failed } = await requireUsableMedia(run);
      const versionId = run.versionId!;
      const skipped = Number(ctx.config.skipped_count ?? 0);
      const notes = [
        ...(failed > 0 ? [`${failed} could not be decoded`] : []),
        ...(skipped > 0 ? [`${skipped} archive entr${skipped === 1 ? 'y' : 'ies'} skipped`] : []),
        ...run.notes,
      ];
      await ctx.commit(
        async (trx) => {
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          await deps.ingestion.setTransactionStatus(trx, ctx.datasetId, run.transId!, 'PROCESSED');
          await deps.addMedia.recordBatch(trx, { id: ctx.taskId, datasetId: ctx.datasetId, transId: run.transId!, versionId });
        },
        `Media added: ${usable} file(s)${autoReindex ? ', dataset reindexed' : ''}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`,
      );
    },
  };
}
