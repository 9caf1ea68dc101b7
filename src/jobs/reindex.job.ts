import { type PipelineDeps, type PipelineRun, runStages } from './pipeline.js';
import { reindexStage } from './media-addition.job.js';
import type { JobDefinition } from './registry.js';

/** REINDEX: the graph, clusters and scores of every media recomputed in the task's copy of the head, then READY. */
export function reindexJob(deps: PipelineDeps): JobDefinition {
  return {
    type: 'REINDEX',
    async handler(ctx) {
      const run: PipelineRun = { ctx, deps, transId: null, notes: [], fork: 'unindexed' };
      await runStages(run, [reindexStage]);
      const versionId = run.versionId!;
      await ctx.commit(async (trx) => {
        const counts = await deps.versions.counts(trx, versionId);
        await deps.versions.swapHead(trx, ctx.datasetId, versionId, counts);
      }, 'Dataset reindexed');
    },
  };
}
