import type { DatasetsRepo } from '../modules/datasets/datasets.repo.js';
import type { IngestionRepo } from '../modules/ingestion/ingestion.repo.js';
import { type MediaProcessingDeps, processUploadFile } from '../modules/media/media-processing.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import { forEachConcurrent } from './lib/concurrency.js';
import type { JobDefinition, TaskContext } from './registry.js';

export interface DatasetCreationDeps extends MediaProcessingDeps {
  ingestion: IngestionRepo;
  datasets: DatasetsRepo;
  versions: VersionsRepo;
  /** Media decoded at once: sharp and ffmpeg use threads of their own, so a few per core is enough. */
  concurrency: number;
}

/**
 * DATASET_CREATION: process every uploaded file of the transaction (resuming where a previous run
 * stopped: files already linked or failed are skipped), then in the commit phase write the first
 * version and make it the head, so the dataset turns READY with everything at once.
 */
export function datasetCreationJob(deps: DatasetCreationDeps): JobDefinition {
  return {
    type: 'DATASET_CREATION',
    async handler(ctx) {
      const transId = Number(ctx.config.trans_id);
      const files = await deps.ingestion.files(ctx.datasetId, transId);
      const pending = files.filter((f) => f.media_id === null && f.error === null);
      let finished = files.length - pending.length;
      const report = progressReporter(ctx, deps, files.length);
      await report(finished);

      await forEachConcurrent(
        pending,
        deps.concurrency,
        async (file) => {
          await processUploadFile(deps, file, ctx.signal);
          finished += 1;
          await report(finished);
        },
        ctx.signal,
      );

      const processed = await deps.ingestion.files(ctx.datasetId, transId);
      const usable = processed.filter((f) => f.media_id !== null).length;
      const failed = processed.filter((f) => f.error !== null);
      if (usable === 0) {
        const first = failed[0];
        throw new Error(`No usable media: ${failed.length} file(s) could not be decoded${first ? ` (${first.file_name}: ${first.error})` : ''}`);
      }

      await ctx.commit(
        async (trx) => {
          const versionId = await deps.versions.fork(trx, ctx.datasetId);
          await deps.versions.addTransactionMedia(trx, versionId, ctx.datasetId, transId);
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          await deps.ingestion.setTransactionStatus(trx, ctx.datasetId, transId, 'PROCESSED');
        },
        failed.length > 0 ? `Dataset created: ${usable} file(s) processed, ${failed.length} could not be decoded` : `Dataset created: ${usable} file(s) processed`,
      );
    },
  };
}

/** Moves the task's progress_percentage and the dataset's progress together, writing only when the percentage changes. */
function progressReporter(ctx: TaskContext, deps: DatasetCreationDeps, total: number) {
  let last = -1;
  return async (finished: number) => {
    // The last percent belongs to the commit.
    const pct = total === 0 ? 0 : Math.floor((finished / total) * 99);
    if (pct <= last) return;
    last = pct;
    await ctx.progress(pct, `Processing media: ${finished} of ${total}`);
    await deps.datasets.setProgress(ctx.datasetId, pct);
  };
}
