import {
  CLUSTER_LEVELS,
  type ClusterLevelRule,
  DEFAULT_LEVEL_RULES,
  PHASH_MAX_DISTANCE,
  clusterLevels,
  nearestSimilarity,
  outlierCut,
  outlierFlags,
  uniquenessScale,
  uniquenessScores,
  type NeighbourGraph,
} from '../../core/clustering.js';
import { type ForestParams } from '../../adapters/vectors/forest-graph.js';
import { writeGraphFile } from '../../adapters/vectors/graph-file.js';
import { buildKnnGraph, buildsInParallel, quantizedVectors } from '../../adapters/vectors/knn-graph.js';
import { EXACT_GRAPH_LIMIT, VectorIndex, exactGraph, hnswParams } from '../../adapters/vectors/usearch-index.js';
import { type EmbeddingMap, type RowReader, computeMap } from './embedding-map.js';

export const NEIGHBOURS_K = 10;

export interface IndexInput {
  /**
   * n unit vectors, row after row, handed over: centred in place on the exact path; on the approximate path read
   * once into bytes, and a resizable buffer (loadVectors') shrunk to nothing on the way.
   */
  vectors: Float32Array;
  dimensions: number;
  /** 64-bit perceptual hashes (16 hex digits) per item, null where there is none; or already split in halves. */
  phashes: Array<string | null> | PhashHalves;
  /** A mean learned elsewhere that steadies centring on small datasets, and its weight in items. */
  prior: { mean: Float32Array; weight: number } | null;
  threads: number;
  /** Where to save the ANN index for similarity search; null skips it. */
  indexPath: string | null;
  rules?: readonly ClusterLevelRule[];
  /** Where to save the neighbour graph's lists (graph-file.ts); null skips it. */
  graphPath?: string | null;
  /** Return the neighbour graph too (benches measure its recall). */
  keepGraph?: boolean;
  /**
   * Let go of `vectors` once a large graph has them as one byte per dimension (computeIndex then empties the field):
   * at 1M media that frees 1.9 GB for the build. Only for a caller that holds no other reference to them.
   */
  releaseVectors?: boolean;
  /** Items the embedding map's UMAP is fitted on: MAP_SAMPLE unless told (tests about other things keep it small). */
  mapSample?: number;
}

/** Perceptual hashes as two 32-bit halves per item (`has` 0 where there is none): 12 bytes an item instead of a string. */
export interface PhashHalves {
  hi: Int32Array;
  lo: Int32Array;
  has: Uint8Array;
}

export function emptyPhashHalves(n: number): PhashHalves {
  return { hi: new Int32Array(n), lo: new Int32Array(n), has: new Uint8Array(n) };
}

/** Stores item i's hash, if it is one (16 hex digits). */
export function setPhash(halves: PhashHalves, i: number, hash: string | null): void {
  if (!hash || hash.length !== 16) return;
  halves.hi[i] = Number.parseInt(hash.slice(0, 8), 16) | 0;
  halves.lo[i] = Number.parseInt(hash.slice(8), 16) | 0;
  halves.has[i] = 1;
}

/** Told how far the computation is (0..1) and what it is doing. */
export type IndexProgress = (fraction: number, message: string) => void;

export interface IndexOutput {
  mean: Float32Array;
  /** One array per level: each item's cluster label (the smallest item index in its cluster). */
  levels: Int32Array[];
  nearest: Float32Array;
  uniqueness: Float32Array;
  outliers: Uint8Array;
  /** What media attached later without a reindex are scored against: d / scale, and outlier when ≤ cut. */
  scale: { uniqueness: number; outlierCut: number | null };
  exact: boolean;
  /** How the approximate graph was built (null for an exact graph), and the slots each round of joins changed. */
  forest: { params: ForestParams; rounds: number[] } | null;
  /**
   * `graph`: the neighbour graph and the saved search index together; `index` is the search index's part, `joins`
   * the part spent joining neighbourhoods (0 for an exact graph).
   */
  seconds: { graph: number; index: number; joins: number; clusters: number; map: number };
  /** Each item's position on the embedding map (embedding-map.ts). */
  map: EmbeddingMap;
  graph?: NeighbourGraph;
}

/**
 * Everything the index of a version needs, from its vectors: centre on the (prior-weighted) mean,
 * a k-NN graph (exact when small, else projection trees and neighbourhood joins), the HNSW index that similarity
 * search uses, clusters at every level with perceptual-hash matches joining level 0, then scores. CPU-bound; the
 * service runs it on a worker thread, and large graphs use `threads` more.
 */
export async function computeIndex(input: IndexInput, onProgress: IndexProgress = () => {}): Promise<IndexOutput> {
  const { dimensions: d, threads } = input;
  const n = input.vectors.length / d;
  const mean = meanOf(input.vectors, d, input.prior);

  let t = performance.now();
  const exact = n <= EXACT_GRAPH_LIMIT;
  let graph: NeighbourGraph;
  let indexSeconds = 0;
  let joinSeconds = 0;
  let forest: IndexOutput['forest'] = null;
  let readRow: RowReader;
  if (exact) {
    centreRows(input.vectors, d, mean);
    graph = exactGraph(input.vectors, d, NEIGHBOURS_K, threads);
    onProgress(0.5, `exact neighbour graph of ${n} media`);
    if (input.indexPath) VectorIndex.build(input.vectors, d, threads).save(input.indexPath);
    const centred = input.vectors;
    readRow = (i, out) => out.set(centred.subarray(i * d, (i + 1) * d));
  } else {
    const q8 = quantizedVectors(input.vectors, d, mean, buildsInParallel(n, threads));
    if (input.releaseVectors) input.vectors = new Float32Array(0);
    // The search index first, released once saved: it and the graph's working set are never held together.
    if (input.indexPath) {
      const index = VectorIndex.build(q8, d, threads, (f) => onProgress(0.3 * f, `building the search index: ${Math.round(f * n)} of ${n}`), hnswParams(n));
      index.saveAndRelease(input.indexPath);
      indexSeconds = (performance.now() - t) / 1000;
    }
    const from = input.indexPath ? 0.3 : 0;
    const built = await buildKnnGraph(q8, d, NEIGHBOURS_K, threads, (f, message) => onProgress(from + (0.9 - from) * f, message));
    graph = built.graph;
    joinSeconds = built.seconds.joins;
    forest = { params: built.params, rounds: built.rounds };
    readRow = (i, out) => {
      for (let x = 0; x < d; x++) out[x] = q8[i * d + x]!;
    };
  }
  onProgress(0.9, `clusters and scores of ${n} media`);
  const graphSeconds = (performance.now() - t) / 1000;

  t = performance.now();
  const levels = clusterLevels(graph, input.rules ?? DEFAULT_LEVEL_RULES, phashPairs(graph, input.phashes));
  if (levels.length !== CLUSTER_LEVELS) throw new Error(`expected ${CLUSTER_LEVELS} cluster levels, got ${levels.length}`);
  const nearest = nearestSimilarity(graph);
  const scale = { uniqueness: uniquenessScale(nearest), outlierCut: outlierCut(nearest) };
  const output = { mean, levels, nearest, uniqueness: uniquenessScores(nearest), outliers: outlierFlags(nearest), scale, exact, forest };
  const clusterSeconds = (performance.now() - t) / 1000;

  if (input.graphPath && n > 0) await writeGraphFile(input.graphPath, graph);

  onProgress(0.95, `embedding map of ${n} media`);
  t = performance.now();
  const map = computeMap(n, d, readRow, graph, threads, input.mapSample);
  const seconds = { graph: graphSeconds, index: indexSeconds, joins: joinSeconds, clusters: clusterSeconds, map: (performance.now() - t) / 1000 };
  return { ...output, seconds, map, ...(input.keepGraph ? { graph } : {}) };
}

/**
 * Subtracts the mean (meanOf) from every vector and re-normalises, in place: the backbone's features share a large
 * common component that makes unrelated photos look alike until it is removed.
 */
export function centreRows(vectors: Float32Array, d: number, mean: Float32Array): void {
  for (let i = 0; i < vectors.length / d; i++) centreOne(vectors.subarray(i * d, (i + 1) * d), mean);
}

/** The vectors' mean, steadied by the prior's mean counted as `weight` more items. */
export function meanOf(vectors: Float32Array, d: number, prior: IndexInput['prior']): Float32Array {
  const n = vectors.length / d;
  const sum = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let x = 0; x < d; x++) sum[x] = sum[x]! + vectors[i * d + x]!;
  const weight = prior?.weight ?? 0;
  const mean = new Float32Array(d);
  if (n + weight > 0) for (let x = 0; x < d; x++) mean[x] = (sum[x]! + weight * (prior?.mean[x] ?? 0)) / (n + weight);
  return mean;
}

/** Centres one vector on `mean` and re-normalises it, in place (a query is treated like an indexed item). */
export function centreOne(v: Float32Array, mean: Float32Array): Float32Array {
  let norm = 0;
  for (let x = 0; x < v.length; x++) {
    v[x] = v[x]! - mean[x]!;
    norm += v[x]! * v[x]!;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let x = 0; x < v.length; x++) v[x] = v[x]! / norm;
  return v;
}

/** Pairs of graph neighbours, or items with equal hashes, whose perceptual hashes nearly match. */
function phashPairs(graph: NeighbourGraph, phashes: IndexInput['phashes']): Int32Array {
  // Each 64-bit hash as two 32-bit halves: BigInt popcounts cost ~20x more at a million items.
  const { hi, lo, has } = Array.isArray(phashes) ? halvesOf(phashes, graph.n) : phashes;
  const first = firstOfEqual(hi, lo, has);
  const pairs: number[] = [];
  for (let i = 0; i < graph.n; i++) {
    if (!has[i]) continue;
    if (first[i] !== i) pairs.push(first[i]!, i);
    for (let j = 0; j < graph.k; j++) {
      const other = graph.neighbours[i * graph.k + j]!;
      if (other >= 0 && has[other] && popcount32(hi[i]! ^ hi[other]!) + popcount32(lo[i]! ^ lo[other]!) <= PHASH_MAX_DISTANCE) pairs.push(i, other);
    }
  }
  return Int32Array.from(pairs);
}

function halvesOf(phashes: Array<string | null>, n: number): PhashHalves {
  const halves = emptyPhashHalves(n);
  phashes.forEach((h, i) => setPhash(halves, i, h));
  return halves;
}

/** For each item with a hash, the smallest index holding the same hash (itself when it is the first). */
function firstOfEqual(hi: Int32Array, lo: Int32Array, has: Uint8Array): Int32Array {
  const order = Uint32Array.from({ length: has.length }, (_, i) => i).filter((i) => has[i] === 1);
  order.sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]! || a - b);
  const first = new Int32Array(has.length).fill(-1);
  for (let r = 0; r < order.length; r++) {
    const i = order[r]!;
    const prev = r > 0 ? order[r - 1]! : -1;
    first[i] = prev >= 0 && hi[prev] === hi[i] && lo[prev] === lo[i] ? first[prev]! : i;
  }
  return first;
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
