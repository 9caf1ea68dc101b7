import { indexVersion } from '../modules/indexing/version-indexer.js';
import { type PipelineDeps, type PipelineRun, type PipelineStage, mediaStage, prepareVersion, requireUsableMedia, runStages } from './pipeline.js';
import type { JobDefinition } from './registry.js';

export type DatasetCreationDeps = PipelineDeps;

/** The dataset-wide index over the new version: neighbour graph, clusters at every level, scores. */
const indexStage: PipelineStage = {
  name: 'index',
  weight: 1,
  async run(run, progress) {
    await requireUsableMedia(run);
    await indexVersion(run.deps, await prepareVersion(run), run.ctx.signal, progress);
  },
};

/** The creation pipeline, in order. */
export const CREATION_STAGES: readonly PipelineStage[] = [mediaStage, indexStage];

/**
 * DATASET_CREATION: run the stages over the transaction's uploads into the task's version, then in the
 * commit phase make it the head, so the dataset turns READY with everything at once, sealed as its
 * `creation` snapshot.
 */
export function datasetCreationJob(deps: PipelineDeps, stages: readonly PipelineStage[] = CREATION_STAGES): JobDefinition {
  return {
    type: 'DATASET_CREATION',
    async handler(ctx) {
      const run: PipelineRun = { ctx, deps, transId: Number(ctx.config.trans_id), notes: [] };
      await runStages(run, stages);
      const { usable, failed } = await requireUsableMedia(run);
      const versionId = run.versionId;
      if (!versionId) throw new Error('the pipeline ended without a version to commit');

      await ctx.commit(
        async (trx) => {
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          await deps.indexing.setEmbeddingConfig(trx, ctx.datasetId, deps.embedding);
          await deps.ingestion.setTransactionStatus(trx, ctx.datasetId, run.transId!, 'PROCESSED');
          if (await deps.datasets.snapshotsEnabled(trx, ctx.datasetId)) {
            await deps.snapshots.record(trx, { datasetId: ctx.datasetId, createdBy: ctx.createdBy, reason: 'creation' });
          }
        },
        failed > 0 ? `Dataset created: ${usable} file(s) processed, ${failed} could not be decoded` : `Dataset created: ${usable} file(s) processed`,
      );
    },
  };
}
