import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { Db } from '../adapters/db/database.js';
import { type StoredGraph, readGraphFile } from '../adapters/vectors/graph-file.js';
import { VectorIndex } from '../adapters/vectors/usearch-index.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import { EXACT_NEIGHBOURS_UP_TO, type LabelAnalysis, analyseLabels, analyseObjects } from '../modules/label-errors/label-analysis.js';
import type { LabelErrorTarget, LabelErrorsRepo, LabelledVectors, ScoreRows } from '../modules/label-errors/label-errors.repo.js';
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
 * neighbours (exactly when few, else from the index's stored k-NN graph, searching its ANN index where that falls short), scores them and the class centroids,
 * does the same for the detected objects (config.target 'objects' or 'all': objects against objects), writes the
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
      const target = (ctx.config.target ?? 'media') as LabelErrorTarget;
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
      // Media and objects share the 10–80 % of progress when both are scored.
      const [mediaShare, objectShare] = target === 'all' ? [[10, 35], [45, 35]] : [[10, 70], [10, 70]];
      const options = (at: number[]) => ({
        k,
        threshold,
        threads: deps.indexThreads,
        signal: ctx.signal,
        onProgress: (fraction: number, message: string) => ctx.progress(at[0]! + Math.round(at[1]! * fraction), message),
      });
      let media: { items: LabelledVectors; analysis: LabelAnalysis } | null = null;
      let objects: { items: LabelledVectors; analysis: LabelAnalysis } | null = null;
      if (target !== 'objects') {
        await ctx.progress(1, 'Label errors: reading the labelled media and their embeddings');
        const items = await deps.labelErrors.labelledVectors(state.headVersionId, index, ctx.signal, (n) => ctx.progress(5, `Label errors: read ${n} labelled media`));
        if (items.mediaIds.length === 0) throw new Error('No labelled media has an embedding');
        lap('read');
        const approximate = items.mediaIds.length > EXACT_NEIGHBOURS_UP_TO;
        const ann = index.annBlobHash && approximate ? await openIndex(deps.blobs, index.annBlobHash, index.dimensions) : null;
        const graph = index.graphBlobHash && approximate ? await openGraph(deps.blobs, index.graphBlobHash) : null;
        media = { items, analysis: await analyseLabels(items, index.dimensions, ann, graph, options(mediaShare)) };
        lap('analyse');
      }
      if (target !== 'media') {
        const items = await deps.labelErrors.labelledObjects(state.headVersionId, index.dimensions, ctx.signal, (n) => ctx.progress(objectShare[0]!, `Label errors: read ${n} objects`));
        if (items.mediaIds.length === 0) throw new Error('No detected object has a crop embedding');
        lap('read objects');
        const stored = items.objectGraph ? await openGraph(deps.blobs, items.objectGraph.graphBlobHash) : null;
        objects = { items, analysis: await analyseObjects(items, index.dimensions, stored, options(objectShare)) };
        lap('analyse objects');
      }
      const runId = await deps.labelErrors.startRun(ctx.datasetId, ctx.taskId, k, threshold, target);
      for (const [done, kind] of [
        [media, 'media'],
        [objects, 'objects'],
      ] as const) {
        if (!done) continue;
        const n = done.items.mediaIds.length;
        for (let start = 0; start < n; start += WRITE_CHUNK) {
          ctx.signal.throwIfAborted();
          const end = Math.min(n, start + WRITE_CHUNK);
          const rows = scoreRows(done.items, done.analysis, start, end);
          await (kind === 'media' ? deps.labelErrors.writeScores(runId, rows) : deps.labelErrors.writeObjectScores(runId, rows));
          await ctx.progress(80 + Math.round((18 * end) / n), `Label errors: stored the scores of ${end} of ${n} ${kind}`);
        }
      }
      lap('write');
      ctx.log.info({ labelled: media?.items.mediaIds.length ?? 0, objects: objects?.items.mediaIds.length ?? 0, fromGraph: media?.analysis.fromGraph ?? 0, objectsFromGraph: objects?.analysis.fromGraph ?? 0, seconds }, 'label errors scored');
      await ctx.commit(
        async (trx) => {
          const now = await deps.lifecycle.state(trx, ctx.datasetId);
          if (!now.headVersionId) throw new Error('The dataset has no version to analyse');
          const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'carried');
          const found = await deps.labelErrors.commitRun(trx, runId, versionId);
          await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.annotations.counts(trx, ctx.datasetId));
          return { media: found, objects: objects ? await deps.labelErrors.objectCounts(trx, runId) : null };
        },
        (r) =>
          [
            media ? `Scored ${r.media.scored} labelled media (k=${k}): ${r.media.mislabels} mislabels at threshold ${threshold}, ${r.media.class_outliers} class outliers` : null,
            r.objects ? `Scored ${r.objects.scored} objects (k=${k}): ${r.objects.mislabels} mislabels at threshold ${threshold}, ${r.objects.class_outliers} class outliers` : null,
          ]
            .filter((line) => line !== null)
            .join('; '),
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
  if (items.objectIds) rows.objectIds = items.objectIds.slice(start, end);
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
