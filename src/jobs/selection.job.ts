import type { Db } from '../adapters/db/database.js';
import type { EmbeddingConfig } from '../adapters/db/schema.js';
import type { ExploreFilters } from '../core/vql.js';
import { DEFAULT_SELECTION_TAG, type SelectionAction, type SelectionStrategy } from '../core/selection.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import { toPick } from '../modules/annotations/annotations.service.js';
import type { IndexingRepo } from '../modules/indexing/indexing.repo.js';
import { modelKey } from '../modules/indexing/version-indexer.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import { computeSelection } from '../modules/selection/compute-selection.js';
import { computeSelectionOffThread } from '../modules/selection/selection-runner.js';
import type { SelectionRepo } from '../modules/selection/selection.repo.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition } from './registry.js';

/** Pairs × dimensions below which a selection runs on the task's own thread. */
const IN_PROCESS_WORK = 2e7;

export interface SelectionDeps {
  db: Db;
  selection: SelectionRepo;
  annotations: AnnotationsRepo;
  indexing: IndexingRepo;
  lifecycle: Pick<DatasetLifecycle, 'state'>;
  versions: VersionsRepo;
  threads: number;
  backgroundNice: number;
}

/** A SELECTION task's config, as the service wrote it. */
interface SelectionConfig {
  strategy: SelectionStrategy;
  n: number;
  action: SelectionAction;
  tag?: string;
  name?: string;
  field?: string;
  order?: 'asc' | 'desc';
  threshold?: number;
  query?: Record<string, unknown>;
  exclude_tags?: string[];
}

/**
 * SELECTION: reads the head's pool (its images and frames, narrowed by an Explore query) and chooses n of them by the
 * strategy, on a worker thread; then, in its commit, either tags them on the head as it is then (a delta fork, as an
 * edit) or makes a new READY dataset holding only them. Nothing is written before the commit, so a rerun after a
 * crash chooses again (the same media: every strategy is deterministic) and a crash never leaves half a clone.
 */
export function selectionJob(deps: SelectionDeps): JobDefinition {
  return {
    type: 'SELECTION',
    async handler(ctx) {
      const config = ctx.config as unknown as SelectionConfig;
      const filters = config.query ? (toPick({ query: config.query }) as { filters: ExploreFilters }).filters : null;
      const state = await deps.db.transaction().execute((trx) => deps.lifecycle.state(trx, ctx.datasetId, { lock: false }));
      if (!state.headVersionId) throw new Error('The dataset has no version to select from');
      const headId = state.headVersionId;
      let chosen: string[];
      if (config.strategy === 'uncertain') {
        await ctx.progress(10, `Ordering media by ${config.field}`);
        chosen = await deps.selection.byField(headId, filters, config.exclude_tags ?? [], config.field!, config.order ?? 'desc', config.n);
      } else {
        const embedding = state.embeddingConfig as EmbeddingConfig | null;
        const index = await deps.indexing.baseIndex(headId);
        if (!embedding || !index) throw new Error('The dataset has no index to select from');
        await ctx.progress(5, 'Reading the embeddings');
        const level = config.strategy === 'representative' ? (config.threshold ?? 0) : null;
        const pool = await deps.selection.loadPool(headId, filters, config.exclude_tags ?? [], level, modelKey(embedding), embedding.dimensions, ctx.signal);
        if (pool.mediaIds.length < config.n) throw new Error(`Only ${pool.mediaIds.length} media are left to choose ${config.n} from`);
        await ctx.progress(20, `Choosing ${config.n} of ${pool.mediaIds.length} media (${config.strategy})`);
        let last = 0;
        const input = { strategy: config.strategy, vectors: pool.vectors, dimensions: embedding.dimensions, mean: index.mean, k: config.n, threads: deps.threads, clusters: pool.clusters };
        const onProgress = (fraction: number, message: string) => {
          const pct = Math.floor(20 + 70 * fraction);
          if (pct > last) void ctx.progress((last = pct), `Choosing: ${message}`).catch(() => {});
        };
        // A small pool is chosen here (well under a second of work): a worker thread would cost more to start.
        const small = pool.mediaIds.length * config.n * embedding.dimensions <= IN_PROCESS_WORK;
        const output = small ? await computeSelection({ ...input, threads: 1 }, onProgress) : await computeSelectionOffThread(input, ctx.signal, onProgress, deps.backgroundNice);
        chosen = Array.from(output.picks, (i) => pool.mediaIds[i]!);
        if (output.radius !== null) ctx.log.info({ dims: output.dims, exact: output.exact, pool: output.pool, radius: output.radius }, 'diverse selection');
      }
      await ctx.progress(90, `Chose ${chosen.length} media`);
      if (config.action === 'clone') {
        await ctx.commit(
          async (trx) => {
            const now = await deps.lifecycle.state(trx, ctx.datasetId);
            const made = await deps.selection.cloneSelection(trx, {
              sourceId: ctx.datasetId,
              headId: now.headVersionId ?? headId,
              name: config.name!,
              ownerId: ctx.createdBy,
              embedding: now.embeddingConfig,
              mediaIds: chosen,
            });
            await deps.versions.swapHead(trx, made.datasetId, made.versionId, await deps.versions.counts(trx, made.versionId));
            return made;
          },
          (made) => `Cloned ${chosen.length} selected media into dataset ${made.datasetId}`,
        );
        return;
      }
      const tag = config.tag ?? DEFAULT_SELECTION_TAG;
      await ctx.commit(
        async (trx) => {
          const now = await deps.lifecycle.state(trx, ctx.datasetId);
          if (!now.headVersionId) throw new Error('The dataset has no version to tag');
          const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'written by the caller');
          const changed = await deps.annotations.apply(trx, now.headVersionId, versionId, { kind: 'ids', ids: chosen }, { kind: 'add_tags', tags: [tag] });
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.annotations.counts(trx, ctx.datasetId));
          return changed;
        },
        (changed) => `Tagged ${chosen.length} selected media '${tag}' (${changed} newly)`,
      );
    },
  };
}
