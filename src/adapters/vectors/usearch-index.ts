import { createRequire } from 'node:module';
import type { NeighbourGraph } from '../../core/clustering.js';

// usearch ships CommonJS with prebuilt binaries for linux/darwin/win32 inside the npm package (no download, no build).
const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

/** Below this many vectors the neighbour graph is computed exactly (brute force beats building HNSW there). */
export const EXACT_GRAPH_LIMIT = 4000;

/** Vectors added or searched per native call: small enough that progress moves every few seconds. */
const CHUNK = 20_000;

export type Quantization = 'f16' | 'i8';

export interface HnswParams {
  metric: 'cos';
  quantization: Quantization;
  connectivity: number;
  expansion_add: number;
}

/** The search index's settings for up to 200k items (the neighbour graph is built apart: src/adapters/vectors/knn-graph.ts). */
export const HNSW_PARAMS: HnswParams = { metric: 'cos', quantization: 'f16', connectivity: 12, expansion_add: 40 };

/**
 * Above 200k items the index holds one byte per dimension (i8: usearch scales each vector to 127 × unit length,
 * ~0.01 cosine error at 480 dimensions, none in the graph's similarities), so it stays near 0.6 GB at 1M and is
 * built faster; at 100k i8 built and searched faster than f16, and fp8 e4m3 was 3x slower.
 */
export const LARGE_HNSW_PARAMS: HnswParams = { metric: 'cos', quantization: 'i8', connectivity: 8, expansion_add: 20 };

export const LARGE_INDEX_FROM = 200_000;

export function hnswParams(n: number): HnswParams {
  return n > LARGE_INDEX_FROM ? LARGE_HNSW_PARAMS : HNSW_PARAMS;
}

/** The beam of a single similarity-search query: wide, since one query costs little next to the page around it. */
export const SEARCH_EXPANSION = 256;

/**
 * The beam over a large index (LARGE_HNSW_PARAMS): its sparse links on many small clusters reach a query's cluster
 * only with a wide beam. Synthetic 480-d vectors at 1M (first 10 of 1,000 matches against exact search, 200 queries):
 * recall 0.37 at 1,024 (13 ms p50), 0.65 at 4,096 (55 ms), 0.85 at 16,384 (231 ms, too slow for a page). At 8,192 the
 * scale bench measured 0.78 (0.63–0.66 at 4,096) and a similarity page at p95 217–225 ms (147–150), under its 300 ms.
 */
export const LARGE_SEARCH_EXPANSION = 8192;

export function searchExpansion(n: number): number {
  return n > LARGE_INDEX_FROM ? LARGE_SEARCH_EXPANSION : SEARCH_EXPANSION;
}

export interface VectorMatches {
  /** Positions of the matches in the indexed array, closest first. */
  ordinals: Int32Array;
  /** Cosine distances (1 − similarity), ascending. */
  distances: Float32Array;
}

/**
 * An approximate nearest-neighbour index over unit vectors keyed by their position (ordinal).
 * Built once per dataset version by the indexing job, saved as a blob, reopened for similarity search.
 */
export class VectorIndex {
  private constructor(
    private readonly index: InstanceType<typeof usearch.Index>,
    readonly dimensions: number,
  ) {}

  /**
   * Builds over all vectors (keys = positions), in chunks so that `onProgress` (0..1) moves during long builds. One-byte
   * vectors (quantizeRows: each row at its own scale) are turned back into unit f32 vectors a chunk at a time.
   */
  static build(vectors: Float32Array | Int8Array, dimensions: number, threads: number, onProgress?: (fraction: number) => void, params: HnswParams = HNSW_PARAMS): VectorIndex {
    const n = vectors.length / dimensions;
    const index = VectorIndex.empty(dimensions, n, params);
    const keys = new BigUint64Array(n);
    for (let i = 0; i < n; i++) keys[i] = BigInt(i);
    for (let start = 0; start < n; start += CHUNK) {
      const end = Math.min(n, start + CHUNK);
      const chunk = vectors instanceof Int8Array ? unitRows(vectors, dimensions, start, end) : vectors.subarray(start * dimensions, end * dimensions);
      index.add(keys.subarray(start, end), chunk, threads);
      onProgress?.(end / n);
    }
    return new VectorIndex(index, dimensions);
  }

  /** Opens a saved index (its quantisation and links come from the file) searching with the given beam. */
  static load(filePath: string, dimensions: number, expansionSearch = SEARCH_EXPANSION): VectorIndex {
    const index = VectorIndex.empty(dimensions, 0, HNSW_PARAMS, expansionSearch);
    index.load(filePath);
    return new VectorIndex(index, dimensions);
  }

  /**
   * Memory-maps a saved index read-only: only the pages a search touches are read, and the kernel can drop
   * them again, so a million-item index costs no up-front load. For searching; `add` needs load(). The beam is
   * searchExpansion() of the index's size unless given.
   */
  static view(filePath: string, dimensions: number, expansionSearch?: number): VectorIndex {
    const open = (beam: number) => {
      const index = VectorIndex.empty(dimensions, 0, HNSW_PARAMS, beam);
      index.view(filePath);
      return index;
    };
    let index = open(expansionSearch ?? SEARCH_EXPANSION);
    // The beam is fixed when the index object is made: a large index is mapped again with its own, the first dropped.
    if (expansionSearch === undefined && searchExpansion(index.size()) !== SEARCH_EXPANSION) index = open(searchExpansion(index.size()));
    return new VectorIndex(index, dimensions);
  }

  private static empty(dimensions: number, capacity: number, params: HnswParams, expansionSearch = SEARCH_EXPANSION) {
    const { metric, quantization, connectivity, expansion_add } = params;
    return new usearch.Index({ dimensions, metric, quantization, connectivity, expansion_add, expansion_search: expansionSearch, multi: false, ...(capacity > 0 ? { capacity } : {}) } as never);
  }

  get size(): number {
    return this.index.size();
  }

  /** Adds one vector under `ordinal` (the index grows as needed). */
  add(ordinal: number, vector: Float32Array): void {
    this.index.add(BigInt(ordinal), vector);
  }

  save(filePath: string): void {
    this.index.save(filePath);
  }

  /**
   * Saves, then swaps the in-memory index for a read-only mapping of the file: its memory (~0.6 GB at 1M)
   * is released now rather than whenever the garbage collector gets to a small wrapper object.
   */
  saveAndRelease(filePath: string): void {
    this.index.save(filePath);
    this.index.view(filePath);
  }

  /**
   * search() for many queries in one native call. On one thread: a search on more threads than the index reserved
   * when it was built or loaded throws, and the binding offers no way to reserve them.
   */
  searchMany(queries: Float32Array[], k: number): VectorMatches[] {
    const limit = Math.min(k, this.size);
    if (limit === 0 || queries.length === 0) return queries.map(() => ({ ordinals: new Int32Array(0), distances: new Float32Array(0) }));
    // usearch answers a batch of one as a single query, without counts.
    if (queries.length === 1) return [this.search(queries[0]!, k)];
    const found = this.index.search(queries, limit, 1);
    return queries.map((_, q) => {
      const count = Number(found.counts[q]);
      const keys = found.keys.subarray(q * limit, q * limit + count);
      return { ordinals: Int32Array.from(keys, Number), distances: found.distances.slice(q * limit, q * limit + count) };
    });
  }

  /**
   * Many queries (rows of one flat array) in one native call on `threads` threads; `limit` slots per query in the
   * answer, keys -1 past each query's count. A mapped (view) index searches on several threads (label errors).
   */
  searchRows(queries: Float32Array, k: number, threads: number): { keys: Int32Array; limit: number } {
    const rows = queries.length / this.dimensions;
    const limit = Math.min(k, this.size);
    const keys = new Int32Array(rows * limit).fill(-1);
    if (limit === 0 || rows === 0) return { keys, limit };
    if (rows === 1) {
      const one = this.search(queries, limit);
      keys.set(one.ordinals);
      return { keys, limit };
    }
    const found = this.index.search(queries, limit, threads) as unknown as { keys: BigUint64Array; counts: ArrayLike<number | bigint> };
    for (let q = 0; q < rows; q++) {
      const count = Number(found.counts[q]);
      for (let j = 0; j < count; j++) keys[q * limit + j] = Number(found.keys[q * limit + j]);
    }
    return { keys, limit };
  }

  search(query: Float32Array, k: number): VectorMatches {
    const limit = Math.min(k, this.size);
    if (limit === 0) return { ordinals: new Int32Array(0), distances: new Float32Array(0) };
    const found = this.index.search(query, limit, 1);
    return { ordinals: Int32Array.from(found.keys, Number), distances: Float32Array.from(found.distances) };
  }
}

/** Rows [start, end) of one-byte vectors as unit f32 vectors (usearch's own i8 cast expects unit length). */
export function unitRows(q8: Int8Array, d: number, start: number, end: number): Float32Array {
  const out = new Float32Array((end - start) * d);
  for (let r = 0; r < end - start; r++) {
    let norm = 0;
    for (let x = 0; x < d; x++) norm += q8[(start + r) * d + x]! ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let x = 0; x < d; x++) out[r * d + x] = q8[(start + r) * d + x]! * scale;
  }
  return out;
}

/** The exact k-nearest-neighbour graph by brute force (multi-threaded in usearch's native code). */
export function exactGraph(vectors: Float32Array, dimensions: number, k: number, threads: number): NeighbourGraph {
  const n = vectors.length / dimensions;
  // A single query comes back unbatched; a lone item has no neighbours anyway.
  if (n <= 1) return { n, k, neighbours: new Int32Array(n * k).fill(-1), similarities: new Float32Array(n * k) };
  const found = usearch.exactSearch(vectors, vectors, dimensions, Math.min(k + 1, n), 'cos' as never, threads) as {
    keys: BigUint64Array;
    distances: Float32Array;
    counts: BigUint64Array | number[];
  };
  const graph: NeighbourGraph = { n, k, neighbours: new Int32Array(n * k).fill(-1), similarities: new Float32Array(n * k) };
  fillGraph(graph, 0, n, found.keys, found.distances, found.counts, Math.min(k + 1, n));
  return graph;
}

type SearchBatch = { keys: BigUint64Array; distances: Float32Array; counts: ArrayLike<number | bigint> };

/** Writes search results for rows [first, first + rows) into the graph, dropping each item from its own list. */
function fillGraph(graph: NeighbourGraph, first: number, rows: number, keys: BigUint64Array, distances: Float32Array, counts: ArrayLike<number | bigint>, stride: number): void {
  const { n, k, neighbours, similarities } = graph;
  for (let r = 0; r < rows; r++) {
    const i = first + r;
    const found = Number(counts[r]);
    let j = 0;
    for (let c = 0; c < found && j < k; c++) {
      const other = Number(keys[r * stride + c]);
      if (other === i || other >= n) continue;
      neighbours[i * k + j] = other;
      similarities[i * k + j] = 1 - distances[r * stride + c]!;
      j++;
    }
  }
}

/**
 * For each query row, its k nearest rows of `dataset` by cosine (native brute force on `threads` threads): ids and
 * similarities, k a row, -1 where fewer exist.
 */
export function exactNearest<V extends Float32Array | Int8Array>(dataset: V, queries: V, dimensions: number, k: number, threads: number): { ids: Int32Array; similarities: Float32Array } {
  const rows = queries.length / dimensions;
  const size = dataset.length / dimensions;
  const ids = new Int32Array(rows * k).fill(-1);
  const similarities = new Float32Array(rows * k);
  const kk = Math.min(k, size);
  if (rows === 0 || kk === 0) return { ids, similarities };
  // A single query comes back unbatched: it is asked twice.
  const asked = rows === 1 ? twice(queries) : queries;
  const found = usearch.exactSearch(dataset, asked, dimensions, kk, 'cos' as never, threads) as { keys: BigUint64Array; distances: Float32Array; counts: BigUint64Array | number[] };
  for (let r = 0; r < rows; r++) {
    const count = Math.min(kk, Number(found.counts[r] ?? kk));
    for (let c = 0; c < count; c++) {
      ids[r * k + c] = Number(found.keys[r * kk + c]);
      similarities[r * k + c] = 1 - found.distances[r * kk + c]!;
    }
  }
  return { ids, similarities };
}

function twice<V extends Float32Array | Int8Array>(row: V): V {
  const out = new (row.constructor as new (length: number) => V)(row.length * 2);
  out.set(row);
  out.set(row, row.length);
  return out;
}
