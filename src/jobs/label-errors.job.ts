import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { Db } from '../adapters/db/database.js';
import { type StoredGraph, readGraphFile } from '../adapters/vectors/graph-file.js';
import { VectorIndex } from '../adapters/vectors/usearch-index.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import { EXACT_NEIGHBOURS_UP_TO, type LabelAnalysis, analyseLabels } from '../modules/label-errors/label-analysis.js';
import type { LabelErrorsRepo, LabelledVectors, ScoreRows } from '../modules/label-errors/label-errors.repo.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition } from './registry.js';

export interface LabelErrorsDeps {
  db: Db;
  blobs: BlobStore;
  labelErrors: LabelErrorsRepo;
  annotations: AnnotationsRepo;
  lifecycle: Pick<DatasetLifecycle, 'state'>;
  versions: VersionsRepo;
  indexThreads: number;
}

/** Score rows written per statement. */
const WRITE_CHUNK = 10_000;

/**
 * LABEL_ERRORS: reads the head's labelled media and their centred vectors, finds each one's k nearest labelled
 * neighbours (exactly when few, else from the index's stored k-NN graph, searching its ANN index where that falls short), scores them and the class centroids, writes the
 * scores beside an uncommitted run, then in its commit forks the head (a delta carrying everything) and makes it the
 * head, the run applying from that version on. Labels edited meanwhile keep their edit: their old label's scores
 * no longer apply (label-errors.repo.ts currentScores).
 */
export function labelErrorsJob(deps: LabelErrorsDeps): JobDefinition {
  return {
    type: 'LABEL_ERRORS',
    async handler(ctx) {
      const k = Number(ctx.config.k);
      const threshold = Number(ctx.config.threshold);
      const state = await deps.db.transaction().execute((trx) => deps.lifecycle.state(trx, ctx.datasetId, { lock: false }));
      if (!state.headVersionId) throw new Error('The dataset has no version to analyse');
      const index = await deps.labelErrors.versionIndex(state.headVersionId);
      if (!index) throw new Error('The dataset has no index yet');
      const seconds: Record<string, number> = {};
      let t = performance.now();
      const lap = (step: string) => {
        seconds[step] = Math.round(performance.now() - t) / 1000;
        t = performance.now();
      };
      await ctx.progress(1, 'Label errors: reading the labelled media and their embeddings');
      const items = await deps.labelErrors.labelledVectors(state.headVersionId, index, ctx.signal, (n) => ctx.progress(5, `Label errors: read ${n} labelled media`));
      if (items.mediaIds.length === 0) throw new Error('No labelled media has an embedding');
      const progress = (fraction: number, message: string) => ctx.progress(10 + Math.round(70 * fraction), message);
      lap('read');
      const approximate = items.mediaIds.length > EXACT_NEIGHBOURS_UP_TO;
      const ann = index.annBlobHash && approximate ? await openIndex(deps.blobs, index.annBlobHash, index.dimensions) : null;
      const graph = index.graphBlobHash && approximate ? await openGraph(deps.blobs, index.graphBlobHash) : null;
      const analysis = await analyseLabels(items, index.dimensions, ann, graph, { k, threshold, threads: deps.indexThreads, signal: ctx.signal, onProgress: progress });
      lap('analyse');
      const runId = await deps.labelErrors.startRun(ctx.datasetId, ctx.taskId, k, threshold);
      for (let start = 0; start < items.mediaIds.length; start += WRITE_CHUNK) {
        ctx.signal.throwIfAborted();
        const end = Math.min(items.mediaIds.length, start + WRITE_CHUNK);
        await deps.labelErrors.writeScores(runId, scoreRows(items, analysis, start, end));
        await ctx.progress(80 + Math.round((18 * end) / items.mediaIds.length), `Label errors: stored the scores of ${end} of ${items.mediaIds.length} media`);
      }
      lap('write');
      ctx.log.info({ labelled: items.mediaIds.length, fromGraph: analysis.fromGraph, seconds }, 'label errors scored');
      await ctx.commit(
        async (trx) => {
          const now = await deps.lifecycle.state(trx, ctx.datasetId);
          if (!now.headVersionId) throw new Error('The dataset has no version to analyse');
          const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'carried');
          const found = await deps.labelErrors.commitRun(trx, runId, versionId);
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.annotations.counts(trx, ctx.datasetId));
          return found;
        },
        (r) => `Scored ${r.scored} labelled media (k=${k}): ${r.mislabels} mislabels at threshold ${threshold}, ${r.class_outliers} class outliers`,
      );
    },
  };
}

async function openIndex(blobs: BlobStore, hash: string, dimensions: number): Promise<VectorIndex> {
  const local = await blobs.localFile(hash);
  try {
    // A narrow beam: a million queries at the similarity page's 8,192 would take hours; the lists want k, not 1,000.
    return VectorIndex.view(local.path, dimensions, LABEL_SEARCH_EXPANSION);
  } finally {
    await local.release();
  }
}

async function openGraph(blobs: BlobStore, hash: string): Promise<StoredGraph> {
  const local = await blobs.localFile(hash);
  try {
    return await readGraphFile(local.path);
  } finally {
    await local.release();
  }
}

/** The search beam of label errors' neighbour queries. */
export const LABEL_SEARCH_EXPANSION = 128;

function scoreRows(items: LabelledVectors, a: LabelAnalysis, start: number, end: number): ScoreRows {
  const rows: ScoreRows = { mediaIds: [], labels: [], scores: [], suggested: [], outlierScores: [], mislabels: [], outliers: [] };
  for (let i = start; i < end; i++) {
    rows.mediaIds.push(items.mediaIds[i]!);
    rows.labels.push(items.labels[items.classOf[i]!]!);
    rows.scores.push(Number.isNaN(a.score[i]!) ? null : a.score[i]!);
    rows.suggested.push(a.suggested[i]! >= 0 ? items.labels[a.suggested[i]!]! : null);
    rows.outlierScores.push(Number.isNaN(a.outlierDistance[i]!) ? null : a.outlierDistance[i]!);
    rows.mislabels.push(a.mislabel[i] === 1);
    rows.outliers.push(a.outlier[i] === 1);
  }
  return rows;
}
