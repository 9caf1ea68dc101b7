import { type VectorIndex, exactNearest, unitRows } from '../../adapters/vectors/usearch-index.js';
import { centroidDistances, classOutliers, classSums, mislabelScores, reaches } from '../../core/label-errors.js';
import type { StoredGraph } from '../../adapters/vectors/graph-file.js';
import { buildKnnGraph } from '../../adapters/vectors/knn-graph.js';
import type { LabelledVectors } from './label-errors.repo.js';

import { setImmediate as yieldToEvents } from 'node:timers/promises';

/** Up to this many labelled items, neighbours are found exactly (all pairs); above, through the version's ANN index. */
export const EXACT_NEIGHBOURS_UP_TO = 2000;

/**
 * Queries per native search call, with the event loop let go in between: the task runs in the worker's process, whose
 * database connections time out (and HTTP stalls) when one call holds the thread for long. Measured: 8,192 queries at
 * 100k under load held it past PostgreSQL's one-minute authentication timeout.
 */
const QUERY_CHUNK = 1024;

/** Rows of the exact search between two yields. */
const EXACT_ROWS = 64;

/**
 * Objects a stored graph leaves out (other detections', or too few neighbours left) are searched by brute force
 * while they times all objects stay under this many pairs (about 90 ns a pair natively: 45 s on 2 threads); above,
 * the graph is built again for all of them.
 */
export const SEARCH_REST_PAIRS = 1e9;

/** Pairs of one brute-force call, the event loop let go in between (≈ 1 s). */
const PAIRS_PER_CALL = 1e7;

/** The widest search for labelled neighbours among unlabelled ones (a version mostly unlabelled needs many matches). */
const MAX_MATCHES = 256;

export interface LabelAnalysis {
  score: Float32Array;
  suggested: Int32Array;
  outlierDistance: Float32Array;
  outlier: Uint8Array;
  mislabel: Uint8Array;
  exact: boolean;
  /** Items whose neighbours came from the stored k-NN graph rather than a search. */
  fromGraph: number;
}

export interface AnalysisOptions {
  k: number;
  threshold: number;
  threads: number;
  signal: AbortSignal;
  onProgress: (fraction: number, message: string) => Promise<void>;
}

/** Every item's k nearest labelled items by brute force (cosine on the one-byte rows). */
async function exactNeighbours(items: LabelledVectors, d: number, k: number, signal: AbortSignal): Promise<Int32Array> {
  const n = items.classOf.length;
  const unit = unitRows(items.q8, d, 0, n);
  const out = new Int32Array(n * k).fill(-1);
  const sims = new Float32Array(n * k).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    if (i % EXACT_ROWS === 0) {
      await yieldToEvents();
      signal.throwIfAborted();
    }
    for (let o = 0; o < n; o++) {
      if (o === i) continue;
      let dot = 0;
      for (let x = 0; x < d; x++) dot += unit[i * d + x]! * unit[o * d + x]!;
      if (dot <= sims[i * k + k - 1]!) continue;
      let p = k - 1;
      while (p > 0 && sims[i * k + p - 1]! < dot) {
        sims[i * k + p] = sims[i * k + p - 1]!;
        out[i * k + p] = out[i * k + p - 1]!;
        p--;
      }
      sims[i * k + p] = dot;
      out[i * k + p] = o;
    }
  }
  return out;
}

/** Each item's position in the version's index (its ordinal) mapped back to the item (-1: none of them). */
function positionsOf(items: LabelledVectors, size: number): Int32Array {
  const positionOf = new Int32Array(size).fill(-1);
  for (let i = 0; i < items.classOf.length; i++) if (items.ordinals[i]! >= 0 && items.ordinals[i]! < size) positionOf[items.ordinals[i]!] = i;
  return positionOf;
}

/**
 * Every item's k nearest labelled items read from the index's stored k-NN graph (graph-file.ts), best first: an item
 * whose list holds k labelled others is done; the rest (fewer labelled among its graph neighbours, or attached after
 * the graph was built) are returned for a search. O(n·k).
 */
function graphNeighbours(items: LabelledVectors, graph: StoredGraph, k: number, out: Int32Array): Int32Array {
  const n = items.classOf.length;
  const positionOf = positionsOf(items, graph.n);
  const rest: number[] = [];
  for (let i = 0; i < n; i++) {
    const o = items.ordinals[i]!;
    let filled = 0;
    if (o >= 0 && o < graph.n) {
      for (let j = 0; j < graph.k && filled < k; j++) {
        const other = graph.neighbours[o * graph.k + j]!;
        if (other < 0) break;
        const p = positionOf[other]!;
        if (p >= 0 && p !== i) out[i * k + filled++] = p;
      }
    }
    if (filled < k) rest.push(i);
  }
  return Int32Array.from(rest);
}

/**
 * The k nearest labelled items of the items `which` names, through the version's ANN index (its keys are ordinals, of
 * every embedded media): each asks for enough matches that k of them are likely labelled, and the unlabelled ones and
 * itself are dropped. Native batch search on `threads` threads.
 */
async function indexNeighbours(items: LabelledVectors, d: number, index: VectorIndex, which: Int32Array, out: Int32Array, options: AnalysisOptions): Promise<void> {
  const { k, threads, signal } = options;
  const n = items.classOf.length;
  const positionOf = positionsOf(items, index.size);
  const share = Math.max(n / Math.max(1, index.size), 1 / MAX_MATCHES);
  const ask = Math.min(MAX_MATCHES, Math.ceil((k + 1) / share) + (share < 1 ? k : 0));
  const m = which.length;
  const rows = new Int8Array(Math.min(QUERY_CHUNK, m) * d);
  for (let start = 0; start < m; start += QUERY_CHUNK) {
    signal.throwIfAborted();
    const end = Math.min(m, start + QUERY_CHUNK);
    const chunk = rows.subarray(0, (end - start) * d);
    for (let r = 0; r < end - start; r++) chunk.set(items.q8.subarray(which[start + r]! * d, which[start + r]! * d + d), r * d);
    const { keys, limit } = index.searchRows(unitRows(chunk, d, 0, end - start), ask, threads);
    for (let r = 0; r < end - start; r++) {
      const i = which[start + r]!;
      let filled = 0;
      out.fill(-1, i * k, i * k + k);
      for (let j = 0; j < limit && filled < k; j++) {
        const key = keys[r * limit + j]!;
        if (key < 0) break;
        const o = positionOf[key]!;
        if (o < 0 || o === i) continue;
        out[i * k + filled++] = o;
      }
    }
    await yieldToEvents();
    if (end % (8 * QUERY_CHUNK) === 0 || end === m) await options.onProgress((0.8 * end) / m, `Label errors: searched the neighbours of ${end} of ${m} labelled media`);
  }
}

/**
 * Neighbours from the stored graph where it has k labelled ones for an item, the ANN index for the others (every
 * item when there is no graph, or k is wider than its lists).
 */
async function approximateNeighbours(items: LabelledVectors, d: number, index: VectorIndex | null, graph: StoredGraph | null, options: AnalysisOptions): Promise<{ neighbours: Int32Array; fromGraph: number }> {
  const n = items.classOf.length;
  const out = new Int32Array(n * options.k).fill(-1);
  let rest: Int32Array = Int32Array.from({ length: n }, (_, i) => i);
  if (graph && options.k <= graph.k) rest = graphNeighbours(items, graph, options.k, out);
  await options.onProgress(0.05, `Label errors: ${n - rest.length} of ${n} labelled media have their neighbours in the stored graph`);
  if (index && rest.length > 0) await indexNeighbours(items, d, index, rest, out, options);
  return { neighbours: out, fromGraph: n - rest.length };
}

/** The whole analysis: neighbours, mislabel scores, class centroids and their outliers. */
export async function analyseLabels(items: LabelledVectors, d: number, index: VectorIndex | null, graph: StoredGraph | null, options: AnalysisOptions): Promise<LabelAnalysis> {
  const n = items.classOf.length;
  const exact = n <= EXACT_NEIGHBOURS_UP_TO || (index === null && graph === null);
  const found = exact ? { neighbours: await exactNeighbours(items, d, options.k, options.signal), fromGraph: 0 } : await approximateNeighbours(items, d, index, graph, options);
  return scoreLabels(items, d, found.neighbours, exact, found.fromGraph, options);
}

/** Mislabel scores from each item's k neighbours, then the class centroids and their outliers. */
async function scoreLabels(items: LabelledVectors, d: number, neighbours: Int32Array, exact: boolean, fromGraph: number, options: AnalysisOptions): Promise<LabelAnalysis> {
  const n = items.classOf.length;
  const nClasses = items.labels.length;
  const { score, suggested } = mislabelScores(items.classOf, neighbours, options.k, nClasses);
  await options.onProgress(0.85, `Label errors: distances of ${n} items from their class centroids`);
  const sums = new Float64Array(nClasses * d);
  for (let start = 0; start < n; start += QUERY_CHUNK) {
    const end = Math.min(n, start + QUERY_CHUNK);
    const part = classSums(unitRows(items.q8, d, start, end), d, items.classOf.subarray(start, end), nClasses);
    for (let x = 0; x < sums.length; x++) sums[x] = sums[x]! + part[x]!;
    await yieldToEvents();
  }
  const distance = new Float32Array(n);
  for (let start = 0; start < n; start += QUERY_CHUNK) {
    options.signal.throwIfAborted();
    const end = Math.min(n, start + QUERY_CHUNK);
    centroidDistances(unitRows(items.q8, d, start, end), d, items.classOf, sums, nClasses, distance, start);
    await yieldToEvents();
  }
  const outliers = classOutliers(distance, items.classOf, nClasses);
  const mislabel = new Uint8Array(n);
  for (let i = 0; i < n; i++) mislabel[i] = reaches(score[i]!, options.threshold) ? 1 : 0;
  return { score, suggested, outlierDistance: distance, outlier: outliers.flagged, mislabel, exact, fromGraph };
}

/** The k nearest of all items for each item `which` names, by native brute force, a few rows a call. */
async function searchAll(items: LabelledVectors, d: number, which: Int32Array, out: Int32Array, options: AnalysisOptions): Promise<void> {
  const { k, threads, signal } = options;
  const n = items.classOf.length;
  const step = Math.max(1, Math.floor(PAIRS_PER_CALL / n));
  for (let start = 0; start < which.length; start += step) {
    signal.throwIfAborted();
    const end = Math.min(which.length, start + step);
    const queries = new Int8Array((end - start) * d);
    for (let r = 0; r < end - start; r++) queries.set(items.q8.subarray(which[start + r]! * d, which[start + r]! * d + d), r * d);
    const { ids } = exactNearest(items.q8, queries, d, k + 1, threads);
    for (let r = 0; r < end - start; r++) {
      const i = which[start + r]!;
      let filled = 0;
      out.fill(-1, i * k, i * k + k);
      for (let j = 0; j <= k && filled < k; j++) {
        const o = ids[r * (k + 1) + j]!;
        if (o >= 0 && o !== i) out[i * k + filled++] = o;
      }
    }
    await yieldToEvents();
    await options.onProgress(0.05 + (0.75 * end) / which.length, `Label errors: searched the neighbours of ${end} of ${which.length} objects outside the stored graph`);
  }
}

/**
 * The same analysis over detected objects, compared with objects only: exactly up to EXACT_NEIGHBOURS_UP_TO; above,
 * from the stored graph of the detection that found most of them (object_graphs), the others searched by brute force
 * while that stays under SEARCH_REST_PAIRS; else through a k-NN graph built for the run (the forest graph the index
 * builds for media: O(n·k) memory, on `threads` threads from 50k objects, their rows copied into shared memory).
 */
export async function analyseObjects(items: LabelledVectors, d: number, stored: StoredGraph | null, options: AnalysisOptions): Promise<LabelAnalysis> {
  const n = items.classOf.length;
  if (n <= EXACT_NEIGHBOURS_UP_TO) return analyseLabels(items, d, null, null, options);
  if (stored && options.k <= stored.k) {
    const out = new Int32Array(n * options.k).fill(-1);
    const rest = graphNeighbours(items, stored, options.k, out);
    if (rest.length * n <= SEARCH_REST_PAIRS) {
      await options.onProgress(0.05, `Label errors: ${n - rest.length} of ${n} objects have their neighbours in the stored graph, searching ${rest.length}`);
      await searchAll(items, d, rest, out, options);
      return scoreLabels(items, d, out, false, n - rest.length, options);
    }
  }
  await options.onProgress(0.02, `Label errors: building the neighbour graph of ${n} objects`);
  // The graph's threads read the rows from shared memory (usearch's brute force refuses it: only here).
  const shared = new Int8Array(new SharedArrayBuffer(items.q8.length));
  shared.set(items.q8);
  const built = await buildKnnGraph(shared, d, options.k, options.threads, (f, message) => void options.onProgress(0.02 + 0.6 * f, `Label errors (objects): ${message}`));
  options.signal.throwIfAborted();
  const all = { ...items, ordinals: Int32Array.from({ length: n }, (_, i) => i) };
  return analyseLabels(all, d, null, built.graph, options);
}
