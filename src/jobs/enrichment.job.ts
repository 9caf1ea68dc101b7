import { buffer } from 'node:stream/consumers';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { Db } from '../adapters/db/database.js';
import type { EmbeddingConfig } from '../adapters/db/schema.js';
import { CaptionEndpointError } from '../adapters/models/openai-captioner.js';
import type { EnrichmentModel } from '../modules/enrichment/enrichment-models.js';
import type { EnrichmentItem, EnrichmentRepo, StagedResult } from '../modules/enrichment/enrichment.repo.js';
import type { MediaEnricher } from '../modules/enrichment/media-enricher.js';
import { clusterObjects } from '../modules/enrichment/object-clusters.js';
import type { DatasetsRepo } from '../modules/datasets/datasets.repo.js';
import type { IndexingRepo } from '../modules/indexing/indexing.repo.js';
import { modelKey } from '../modules/indexing/version-indexer.js';
import type { SnapshotsRepo } from '../modules/snapshots/snapshots.repo.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import { forEachConcurrent } from './lib/concurrency.js';
import { type ChunkWork, runInChunks, throttled } from './task-chunks.js';
import type { JobDefinition, TaskContext } from './registry.js';

export interface EnrichmentJobDeps {
  db: Db;
  blobs: BlobStore;
  enrichment: EnrichmentRepo;
  enricher: MediaEnricher;
  /** The models by id, as the catalogue has them when the job runs. */
  enrichmentModels: () => EnrichmentModel[];
  enrichmentConcurrency: number;
  versions: VersionsRepo;
  indexing: IndexingRepo;
  snapshots: SnapshotsRepo;
  datasets: Pick<DatasetsRepo, 'setProgress'>;
  indexThreads: number;
  backgroundNice: number;
  /** Media per chunk, which any worker may take (task-chunks.ts). */
  chunkItems: number;
  staleSeconds: number;
}

/** What an enrichment chunk job needs beyond its run: the version enriched and the models, by id. */
export interface EnrichmentChunkPayload {
  taskId: string;
  versionId: string;
  models: string[];
}

const PAGE = 64;
const MEDIA_SHARE = 90;
/** Progress counts the staged results, every worker's: at most once a second (an index scan of the task's results). */
const REPORT_MS = 1_000;

/**
 * ENRICHMENT, on the enriched copy: every image and video frame of the source's head through the chosen
 * models (in parallel, results staged per media so a rerun resumes), then the objects clustered, then one
 * commit that gives the copy its version (the source's rows with the results); with it the dataset lifecycle
 * makes the copy READY and gives the source back.
 */
export function enrichmentJob(deps: EnrichmentJobDeps): JobDefinition {
  return {
    type: 'ENRICHMENT',
    async handler(ctx) {
      const sourceVersion = String(ctx.config.version_id);
      const requested = ctx.config.models as Record<string, string>;
      const models = activeModels(deps, Object.values(requested));

      const failures = await enrichAll(deps, ctx, { taskId: ctx.taskId, versionId: sourceVersion, models: models.map((m) => m.id) });
      await ctx.progress(MEDIA_SHARE, 'Clustering detected objects');
      const embedding = ctx.config.embedding_config as EmbeddingConfig | null;
      const nObjects = embedding
        ? await clusterObjects({ db: deps.db, blobs: deps.blobs, repo: deps.enrichment, model: modelKey(embedding), dimensions: embedding.dimensions, threads: deps.indexThreads, nice: deps.backgroundNice }, ctx.taskId, ctx.signal)
        : 0;
      await ctx.progress(97, `Writing the enriched version (${nObjects} objects${failures ? `, ${failures} media the models could not read` : ''})`);

      await ctx.commit(async (trx) => {
        const versionId = await deps.enrichment.writeVersion(trx, ctx.datasetId, sourceVersion, ctx.taskId);
        await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
        if (embedding) await deps.indexing.setEmbeddingConfig(trx, ctx.datasetId, embedding);
        await deps.enrichment.finish(trx, ctx.datasetId, { ...(ctx.config.applied_models as Record<string, string>), ...requested }, ctx.taskId);
        await deps.snapshots.record(trx, { datasetId: ctx.datasetId, createdBy: ctx.createdBy, reason: 'creation' });
      }, `Enriched with ${models.map((m) => m.id).join(', ')}`);
    },
  };
}

/** The models by id, each active in this worker's catalogue. */
function activeModels(deps: EnrichmentJobDeps, ids: string[]): EnrichmentModel[] {
  const catalogue = deps.enrichmentModels();
  return ids.map((id) => {
    const model = catalogue.find((m) => m.id === id);
    if (!model || model.status !== 'Active') throw new Error(`Enrichment model ${id} is not available on this worker`);
    return model;
  });
}

/**
 * Runs the models over every item not done yet, in chunks any worker may take (task-chunks.ts); returns how many
 * could not be read. Throws when none could.
 */
async function enrichAll(deps: EnrichmentJobDeps, ctx: TaskContext, payload: EnrichmentChunkPayload): Promise<number> {
  const { versionId } = payload;
  const { total, done: doneBefore } = await deps.enrichment.countItems(versionId, ctx.taskId);
  await ctx.progress(0, `Enriching ${total} images and video frames`);
  const report = throttled(async () => {
    const done = await deps.enrichment.countStaged(ctx.taskId);
    const pct = Math.floor((MEDIA_SHARE * done) / Math.max(total, 1));
    await ctx.progress(pct, `Enriched ${done} of ${total} images and video frames`);
    await deps.datasets.setProgress(ctx.datasetId, pct);
  }, REPORT_MS);
  const run = { taskId: ctx.taskId, attempt: ctx.attempt, kind: 'enrichment' as const };
  const ranges = () => deps.enrichment.pendingRanges(versionId, ctx.taskId, deps.chunkItems);
  await runInChunks(deps, run, ranges, enrichmentChunkWork(deps, payload), ctx.signal, () => report(), { ...payload });
  const { failures, firstFailure } = await deps.enrichment.countFailures(ctx.taskId);
  if (total > 0 && failures === total - doneBefore && failures > 0) throw new Error(`The models could not read any media: ${firstFailure}`);
  return failures;
}

/**
 * Enrichment's work on a chunk: the version's images and frames in the chunk's id range that this task has no result
 * for, through the models a page at a time; a media the models cannot read is staged with its error (it does not
 * fail the chunk), a captioning endpoint that fails does.
 */
export function enrichmentChunkWork(deps: EnrichmentJobDeps, payload: EnrichmentChunkPayload): ChunkWork {
  return async (range, signal, onItem) => {
    const models = activeModels(deps, payload.models);
    let after: string | null = null;
    for (;;) {
      const page: EnrichmentItem[] = await deps.enrichment.pendingItemsIn(payload.versionId, payload.taskId, range, after, PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1]!.media_id;
      const results: StagedResult[] = [];
      await forEachConcurrent(page, deps.enrichmentConcurrency, async (item) => {
        try {
          results.push(await enrichOne(deps, item, models, signal));
        } catch (err) {
          if (signal.aborted || err instanceof CaptionEndpointError) throw err;
          results.push({ media_id: item.media_id, caption: null, objects: null, enrichment: { error: (err as Error).message } });
        }
      }, signal);
      await deps.enrichment.stage(payload.taskId, results);
      await onItem();
    }
  };
}

async function enrichOne(deps: EnrichmentJobDeps, item: EnrichmentItem, models: EnrichmentModel[], signal: AbortSignal): Promise<StagedResult> {
  // A preview is at most ~1.5 MB; the models need the whole encoded image.
  return deps.enricher.enrich(item, await buffer(await deps.blobs.open(item.hash)), models, signal);
}
