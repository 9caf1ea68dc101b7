import type { Db } from '../adapters/db/database.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition } from './registry.js';

export interface LabelPropagationDeps {
  db: Db;
  annotations: AnnotationsRepo;
  lifecycle: Pick<DatasetLifecycle, 'state'>;
  versions: VersionsRepo;
}

/**
 * LABEL_PROPAGATION: in its commit, under the dataset row lock, a delta fork of the head as it is then, the
 * unlabelled members of each cluster (config.threshold) given the cluster's most frequent label, the head
 * swapped. Working on the head at commit time keeps edits made while the task waited.
 */
export function labelPropagationJob(deps: LabelPropagationDeps): JobDefinition {
  return {
    type: 'LABEL_PROPAGATION',
    async handler(ctx) {
      const level = Number(ctx.config.threshold);
      if (!Number.isInteger(level) || level < 0 || level > 4) throw new Error(`Invalid threshold ${String(ctx.config.threshold)}`);
      await ctx.progress(5, `Counting what to label at threshold ${level}`);
      const preview = await deps.db.transaction().execute(async (trx) => {
        const state = await deps.lifecycle.state(trx, ctx.datasetId, { lock: false });
        return state.headVersionId ? deps.annotations.planPropagation(trx, state.headVersionId, level) : null;
      });
      if (!preview) throw new Error('The dataset has no version to label');
      await ctx.progress(50, `Labelling about ${preview.media} media in ${preview.clusters} cluster(s)`);
      await ctx.commit(
        async (trx) => {
          const state = await deps.lifecycle.state(trx, ctx.datasetId);
          if (!state.headVersionId) throw new Error('The dataset has no version to label');
          const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'written by the caller');
          const plan = await deps.annotations.planPropagation(trx, state.headVersionId, level);
          const labelled = await deps.annotations.propagate(trx, state.headVersionId, versionId, level);
          const counts = await deps.annotations.counts(trx, ctx.datasetId);
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, counts);
          return { ...plan, labelled };
        },
        (r) => `Labelled ${r.labelled} media in ${r.clusters} cluster(s) at threshold ${level}; ${r.ambiguous} ambiguous cluster(s) left alone`,
      );
    },
  };
}
