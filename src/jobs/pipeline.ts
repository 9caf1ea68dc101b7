import type { DatasetsRepo } from '../modules/datasets/datasets.repo.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { VersionIndexerDeps } from '../modules/indexing/version-indexer.js';
import type { IngestionRepo } from '../modules/ingestion/ingestion.repo.js';
import type { MediaProcessingDeps } from '../modules/media/media-processing.js';
import type { SnapshotsRepo } from '../modules/snapshots/snapshots.repo.js';
import type { ForkKind, VersionsRepo } from '../modules/versions/versions.repo.js';
import { mediaChunkWork } from './media-chunks.js';
import { idRanges, runInChunks, throttled } from './task-chunks.js';
import type { TaskContext } from './registry.js';

export interface PipelineDeps extends MediaProcessingDeps, VersionIndexerDeps {
  ingestion: IngestionRepo;
  datasets: DatasetsRepo;
  lifecycle: Pick<DatasetLifecycle, 'indexing'>;
  versions: VersionsRepo;
  snapshots: SnapshotsRepo;
  /** Media decoded at once: sharp and ffmpeg use threads of their own, so a few per core is enough. */
  concurrency: number;
  /** Upload files per chunk of the media stage, which any worker may take (task-chunks.ts). */
  chunkItems: number;
  /** A chunk whose claimer has not beaten for this long is taken for abandoned. */
  staleSeconds: number;
  /** Largest single media file a source may bring. */
  maxFileBytes: number;
  /** Where object-storage settings and credentials come from (AWS_*). */
  env: NodeJS.ProcessEnv;
}

export interface PipelineRun {
  ctx: TaskContext;
  deps: PipelineDeps;
  /** The upload transaction (batch) whose files the run processes; null for a reindex. */
  transId: number | null;
  /** The unsealed version the run fills; made the head by the commit. */
  versionId?: string;
  /** Media decoded at once for this run, when the task asks for fewer than the default. */
  concurrency?: number;
  /** How the run's version is forked from the head: `delta` when the run only adds rows and changes a few. */
  fork?: ForkKind;
  /** Lines for the task's final status message (e.g. what a source skipped). */
  notes: string[];
}

export type Progress = (fraction: number, message: string) => Promise<void>;

/** One step of a pipeline; each must be safe to run again after a crash (it resumes). */
export interface PipelineStage {
  name: string;
  /** Its share of the progress bar. */
  weight: number;
  run(run: PipelineRun, progress: Progress): Promise<void>;
}

/** Runs the stages in order, mapping each one's progress onto its share of the task's and the dataset's progress. */
export async function runStages(run: PipelineRun, stages: readonly PipelineStage[]): Promise<void> {
  const report = progressReporter(run.ctx, run.deps);
  const total = stages.reduce((sum, s) => sum + s.weight, 0);
  let before = 0;
  for (const stage of stages) {
    const start = before;
    await stage.run(run, (fraction, message) => report(((start + fraction * stage.weight) / total) * 100, message));
    before += stage.weight;
  }
}

/**
 * Per-file work: facts, thumbnails, hashes, embeddings, video frames, in chunks any worker may take (task-chunks.ts);
 * files already linked or failed are skipped. Progress counts the files done by every worker.
 */
export const mediaStage: PipelineStage = {
  name: 'media',
  weight: 4,
  async run({ ctx, deps, transId, concurrency }, progress) {
    if (transId === null) return;
    const files = await deps.ingestion.files(ctx.datasetId, transId);
    const pending = files.filter((f) => f.media_id === null && f.error === null);
    const report = throttled(async () => {
      const finished = await deps.ingestion.countProcessed(ctx.datasetId, transId);
      await progress(files.length === 0 ? 1 : finished / files.length, `Processing and embedding media: ${finished} of ${files.length}`);
    }, REPORT_MS);
    await report(true);
    if (pending.length === 0) return;
    const payload = { datasetId: ctx.datasetId, transId, ...(concurrency ? { concurrency } : {}) };
    const ranges = async () => idRanges(pending.map((f) => f.id), deps.chunkItems);
    await runInChunks(deps, { taskId: ctx.taskId, attempt: ctx.attempt, kind: 'media' }, ranges, mediaChunkWork(deps, payload), ctx.signal, () => report(), { ...payload });
    await report(true);
  },
};

/** Progress counts the transaction's processed files (an index scan of them) at most this often. */
const REPORT_MS = 250;

/** Fails the run when no file of the batch could be used, naming the first reason. */
export async function requireUsableMedia(run: PipelineRun): Promise<{ usable: number; failed: number }> {
  const processed = await run.deps.ingestion.files(run.ctx.datasetId, run.transId!);
  const usable = processed.filter((f) => f.media_id !== null).length;
  const failed = processed.filter((f) => f.error !== null);
  if (usable === 0) {
    const first = failed[0];
    throw new Error(`No usable media: ${failed.length} file(s) could not be decoded${first ? ` (${first.file_name}: ${first.error})` : ''}`);
  }
  return { usable, failed: failed.length };
}

/** The task's own version: forked from the head on its first run (with the batch's media), found again on a rerun. */
export async function prepareVersion(run: PipelineRun): Promise<string> {
  const { ctx, deps, transId } = run;
  run.versionId = await deps.db.transaction().execute(async (trx) => {
    const versionId = await deps.versions.forkForTask(trx, ctx.datasetId, ctx.taskId, run.fork ?? 'full');
    if (transId !== null) await deps.versions.addTransactionMedia(trx, versionId, ctx.datasetId, transId);
    return versionId;
  });
  return run.versionId;
}

/** Moves the task's progress_percentage and the dataset's progress together, forward only, writing on change. */
function progressReporter(ctx: TaskContext, deps: PipelineDeps) {
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
