import type { DatasetsRepo } from '../modules/datasets/datasets.repo.js';
import { type VersionIndexerDeps, indexVersion } from '../modules/indexing/version-indexer.js';
import type { IngestionRepo } from '../modules/ingestion/ingestion.repo.js';
import { type MediaProcessingDeps, processUploadFile } from '../modules/media/media-processing.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import { forEachConcurrent } from './lib/concurrency.js';
import type { JobDefinition, TaskContext } from './registry.js';

export interface DatasetCreationDeps extends MediaProcessingDeps, VersionIndexerDeps {
  ingestion: IngestionRepo;
  datasets: DatasetsRepo;
  versions: VersionsRepo;
  /** Media decoded at once: sharp and ffmpeg use threads of their own, so a few per core is enough. */
  concurrency: number;
}

export interface CreationRun {
  ctx: TaskContext;
  deps: DatasetCreationDeps;
  transId: number;
  /** The unsealed version the run fills; set by the index stage, made the head by the commit. */
  versionId?: string;
}

/** One step of the creation pipeline; each must be safe to run again after a crash (it resumes). */
export interface CreationStage {
  name: string;
  /** Its share of the progress bar. */
  weight: number;
  run(run: CreationRun, progress: (fraction: number, message: string) => Promise<void>): Promise<void>;
}

/** Per-file work: facts, thumbnails, hashes, embeddings, video frames; files already linked or failed are skipped. */
const mediaStage: CreationStage = {
  name: 'media',
  weight: 4,
  async run({ ctx, deps, transId }, progress) {
    const files = await deps.ingestion.files(ctx.datasetId, transId);
    const pending = files.filter((f) => f.media_id === null && f.error === null);
    let finished = files.length - pending.length;
    const report = () => progress(files.length === 0 ? 1 : finished / files.length, `Processing and embedding media: ${finished} of ${files.length}`);
    await report();
    await forEachConcurrent(
      pending,
      deps.concurrency,
      async (file) => {
        await processUploadFile(deps, file, ctx.signal);
        finished += 1;
        await report();
      },
      ctx.signal,
    );
  },
};

/** The dataset-wide index over the new version: neighbour graph, clusters at every level, scores. */
const indexStage: CreationStage = {
  name: 'index',
  weight: 1,
  async run(run, progress) {
    const { ctx, deps } = run;
    const processed = await deps.ingestion.files(ctx.datasetId, run.transId);
    if (!processed.some((f) => f.media_id !== null)) {
      const failed = processed.filter((f) => f.error !== null);
      const first = failed[0];
      throw new Error(`No usable media: ${failed.length} file(s) could not be decoded${first ? ` (${first.file_name}: ${first.error})` : ''}`);
    }
    run.versionId = await deps.db.transaction().execute(async (trx) => {
      const versionId = await deps.versions.forkForTask(trx, ctx.datasetId, ctx.taskId);
      await deps.versions.addTransactionMedia(trx, versionId, ctx.datasetId, run.transId);
      return versionId;
    });
    await indexVersion(deps, run.versionId, ctx.signal, progress);
  },
};

/** The pipeline, in order. */
export const CREATION_STAGES: readonly CreationStage[] = [mediaStage, indexStage];

/**
 * DATASET_CREATION: run the stages over the transaction's uploads, then in the commit phase write the
 * first version and make it the head, so the dataset turns READY with everything at once.
 */
export function datasetCreationJob(deps: DatasetCreationDeps, stages: readonly CreationStage[] = CREATION_STAGES): JobDefinition {
  return {
    type: 'DATASET_CREATION',
    async handler(ctx) {
      const run: CreationRun = { ctx, deps, transId: Number(ctx.config.trans_id) };
      const report = progressReporter(ctx, deps);
      const total = stages.reduce((sum, s) => sum + s.weight, 0);
      let before = 0;
      for (const stage of stages) {
        const start = before;
        await stage.run(run, (fraction, message) => report(((start + fraction * stage.weight) / total) * 100, message));
        before += stage.weight;
      }

      const processed = await deps.ingestion.files(ctx.datasetId, run.transId);
      const usable = processed.filter((f) => f.media_id !== null).length;
      const failed = processed.filter((f) => f.error !== null);
      const versionId = run.versionId;
      if (!versionId) throw new Error('the pipeline ended without a version to commit');

      await ctx.commit(
        async (trx) => {
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          await deps.indexing.setEmbeddingConfig(trx, ctx.datasetId, deps.embedding);
          await deps.ingestion.setTransactionStatus(trx, ctx.datasetId, run.transId, 'PROCESSED');
        },
        failed.length > 0 ? `Dataset created: ${usable} file(s) processed, ${failed.length} could not be decoded` : `Dataset created: ${usable} file(s) processed`,
      );
    },
  };
}

/** Moves the task's progress_percentage and the dataset's progress together, forward only, writing on change. */
function progressReporter(ctx: TaskContext, deps: DatasetCreationDeps) {
  let last = -1;
  return async (percent: number, message: string) => {
    // The last percent belongs to the commit.
    const pct = Math.floor(Math.min(percent, 100) * 0.99);
    if (pct <= last) return;
    last = pct;
    await ctx.progress(pct, message);
    await deps.datasets.setProgress(ctx.datasetId, pct);
  };
}
