import { createRequire } from 'node:module';
import type { NeighbourGraph } from '../../core/clustering.js';

// usearch ships CommonJS with prebuilt binaries for linux/darwin/win32 inside the npm package (no download, no build).
const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

/** Below this many vectors the neighbour graph is computed exactly (brute force beats building HNSW there). */
export const EXACT_GRAPH_LIMIT = 4000;

/** HNSW settings: measured by bench/index-graph.ts for recall ≥ 0.99 on 480-d vectors at half precision. */
export const HNSW_PARAMS = { metric: 'cos', quantization: 'f16', connectivity: 16, expansion_add: 64, expansion_search: 64 } as const;

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

  static build(vectors: Float32Array, dimensions: number, threads: number): VectorIndex {
    const n = vectors.length / dimensions;
    const index = VectorIndex.empty(dimensions, n);
    const keys = new BigUint64Array(n);
    for (let i = 0; i < n; i++) keys[i] = BigInt(i);
    if (n > 0) index.add(keys, vectors, threads);
    return new VectorIndex(index, dimensions);
  }

  static load(filePath: string, dimensions: number): VectorIndex {
    const index = VectorIndex.empty(dimensions, 0);
    index.load(filePath);
    return new VectorIndex(index, dimensions);
  }

  private static empty(dimensions: number, capacity: number) {
    return new usearch.Index({ dimensions, ...HNSW_PARAMS, multi: false, ...(capacity > 0 ? { capacity } : {}) } as never);
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

  search(query: Float32Array, k: number): VectorMatches {
    const limit = Math.min(k, this.size);
    if (limit === 0) return { ordinals: new Int32Array(0), distances: new Float32Array(0) };
    const found = this.index.search(query, limit, 1);
    return { ordinals: Int32Array.from(found.keys, Number), distances: Float32Array.from(found.distances) };
  }

  /** Every item's k nearest other items (approximate), as a graph of cosine similarities. */
  graph(vectors: Float32Array, k: number, threads: number): NeighbourGraph {
    const n = vectors.length / this.dimensions;
    const found = this.index.search(vectors, k + 1, threads) as unknown as { keys: BigUint64Array; distances: Float32Array; counts: ArrayLike<number | bigint> };
    return toGraph(n, k, found.keys, found.distances, found.counts);
  }
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
  return toGraph(n, k, found.keys, found.distances, found.counts, Math.min(k + 1, n));
}

/** Drops each item from its own list and converts distances to similarities; short rows pad with -1. */
function toGraph(n: number, k: number, keys: BigUint64Array, distances: Float32Array, counts: ArrayLike<number | bigint>, stride = k + 1): NeighbourGraph {
  const neighbours = new Int32Array(n * k).fill(-1);
  const similarities = new Float32Array(n * k);
  for (let i = 0; i < n; i++) {
    const found = Number(counts[i]);
    let j = 0;
    for (let r = 0; r < found && j < k; r++) {
      const other = Number(keys[i * stride + r]);
      if (other === i || other >= n) continue;
      neighbours[i * k + j] = other;
      similarities[i * k + j] = 1 - distances[i * stride + r]!;
      j++;
    }
  }
  return { n, k, neighbours, similarities };
}
