import { quantizeRows } from '../../adapters/vectors/forest-graph.js';
import { Crew, crewData, farthestFirst } from '../../adapters/vectors/k-center.js';
import { poolFarthestFirst } from '../../adapters/vectors/pool-k-center.js';
import { kdOrder } from '../../core/kd-order.js';
import { Rng } from '../../core/random.js';
import { allocateBySize } from '../../core/selection.js';

export interface SelectionInput {
  strategy: 'diverse' | 'representative';
  /** n raw embeddings (n × dimensions, f32) on a SharedArrayBuffer, in media-id order; centred in place. */
  vectors: Float32Array;
  dimensions: number;
  /** The version index's mean: the same centring as the index and similarity search. */
  mean: Float32Array;
  k: number;
  threads: number;
  /** representative: each item's cluster (dense labels 0…c−1) at the chosen level. */
  clusters?: Int32Array;
  /** diverse: pairs × dimensions the exact JavaScript traversal may cost before the native pooled one runs instead (tests lower it). */
  budget?: number;
  /** diverse: pool rows × picks the native traversal may cost before it covers a pool drawn from equal runs (tests lower it). */
  poolPairs?: number;
}

export interface SelectionOutput {
  /** Item indices, in pick order. */
  picks: Int32Array;
  /** diverse: the dimensions the traversal ran in (always the embedding's); `exact` when it covered every item, `pool` the items it covered; its covering radius over them as a cosine distance. */
  dims: number;
  exact: boolean;
  pool: number;
  radius: number | null;
}

/**
 * Pairs × dimensions a diverse selection may cost in the exact JavaScript traversal (about 5 ns each on one of the 2
 * loaded cores here, docs/curation.md): beyond it the native one-byte traversal (poolFarthestFirst) runs instead.
 */
export const DIVERSE_BUDGET = 2e9;
/**
 * Pairs (pool rows × picks) the native traversal may cost, about 90 ns each here: 1M media × 1,000 picks run over
 * every media, 1M × 10,000 over a pool of 100,000.
 */
export const POOL_PAIRS = 1e9;

/** Centres each row on `mean` and scales it to unit length, in place (as the index does, docs/indexing.md). */
export function centreRows(vectors: Float32Array, d: number, mean: Float32Array): void {
  const n = vectors.length / d;
  for (let i = 0; i < n; i++) {
    const base = i * d;
    let norm = 0;
    for (let x = 0; x < d; x++) {
      const v = vectors[base + x]! - mean[x]!;
      vectors[base + x] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let x = 0; x < d; x++) vectors[base + x] = vectors[base + x]! / norm;
  }
}

/** How many rows of n the native traversal to k picks covers: all of them within POOL_PAIRS, else a pool spread evenly over them (never fewer than k). */
export function poolSize(n: number, k: number, pairs = POOL_PAIRS): number {
  return Math.min(n, Math.max(k, Math.floor(pairs / Math.max(1, k))));
}

export async function computeSelection(input: SelectionInput, progress: (fraction: number, message: string) => void): Promise<SelectionOutput> {
  const { vectors, dimensions: d, k } = input;
  const n = vectors.length / d;
  centreRows(vectors, d, input.mean);
  if (input.strategy === 'representative') return { picks: representatives(vectors, d, input.clusters!, k), dims: d, exact: true, pool: n, radius: null };
  if (n * k * d > (input.budget ?? DIVERSE_BUDGET)) return pooledDiverse(vectors, d, k, input.threads, input.poolPairs ?? POOL_PAIRS, progress);
  const threads = Math.max(1, Math.min(input.threads, Math.ceil(n / 50_000)));
  const crew = new Crew(crewData(vectors, d, threads));
  try {
    // Leaves of a k-d order: the traversal skips a leaf whose box is farther from a pick than its farthest item.
    const rows = crew.data.rows;
    const order = kdOrder(rows, d, crew.data.leaf);
    permuteRows(rows, d, order);
    const start = order.indexOf(0);
    const result = farthestFirst(crew, k, start, (picked) => progress(0.1 + (0.9 * picked) / k, `picked ${picked} of ${k}`));
    const picks = result.picks.map((i) => order[i]!);
    // Squared distance between unit vectors is 2·(1 − cos): the radius as a cosine distance.
    return { picks, dims: d, exact: true, pool: n, radius: result.finalRadius / 2 };
  } finally {
    await crew.close();
  }
}

/**
 * Farthest-first in the full space on one byte per dimension (quantizeRows, cosine error near 0.001) over the pool
 * poolSize chooses: every row (greedy k-center itself) or, beyond POOL_PAIRS, one row drawn from each of m equal runs
 * of the media-id order, whose cover stands for the rest's. The first pick is the pool's first row.
 */
function pooledDiverse(vectors: Float32Array, d: number, k: number, threads: number, pairs: number, progress: (fraction: number, message: string) => void): SelectionOutput {
  const n = vectors.length / d;
  const m = poolSize(n, k, pairs);
  progress(0.02, m === n ? `one byte per dimension: ${n} rows` : `one byte per dimension: a pool of ${m} of ${n} rows`);
  const pool = new Int8Array(m * d);
  const rowOf = new Int32Array(m);
  // One row drawn from each of m equal strata (seeded: deterministic): spread over the media-id order, yet blind to any period in it.
  const rng = new Rng(29);
  for (let r = 0; r < m; r++) {
    const from = Math.floor((r * n) / m);
    const i = from + rng.int(Math.floor(((r + 1) * n) / m) - from);
    rowOf[r] = i;
    quantizeRows(vectors.subarray(i * d, i * d + d), d, pool.subarray(r * d, r * d + d));
  }
  const result = poolFarthestFirst(pool, d, k, threads, (picked) => progress(0.05 + (0.95 * picked) / k, `picked ${picked} of ${k}`));
  return { picks: result.picks.map((r) => rowOf[r]!), dims: d, exact: m === n, pool: m, radius: result.radius };
}

/** Rows in `order` (row i becomes the old row order[i]), in place through one copy. */
function permuteRows(rows: Float32Array, dims: number, order: Int32Array): void {
  const copy = rows.slice();
  for (let i = 0; i < order.length; i++) rows.set(copy.subarray(order[i]! * dims, order[i]! * dims + dims), i * dims);
}

/**
 * Representative picks: each cluster gets picks in proportion to its size (allocateBySize), its members nearest its
 * centroid (the mean of its centred unit vectors, by cosine) first. O(n·d).
 */
export function representatives(vectors: Float32Array, d: number, clusters: Int32Array, k: number): Int32Array {
  const n = clusters.length;
  let c = 0;
  for (let i = 0; i < n; i++) c = Math.max(c, clusters[i]! + 1);
  const sums = new Float64Array(c * d);
  const sizes = new Int32Array(c);
  for (let i = 0; i < n; i++) {
    const label = clusters[i]!;
    sizes[label]!++;
    for (let x = 0; x < d; x++) sums[label * d + x] = sums[label * d + x]! + vectors[i * d + x]!;
  }
  const norms = new Float64Array(c);
  for (let l = 0; l < c; l++) {
    let s = 0;
    for (let x = 0; x < d; x++) s += sums[l * d + x]! ** 2;
    norms[l] = Math.sqrt(s) || 1;
  }
  const closeness = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const label = clusters[i]!;
    let dot = 0;
    for (let x = 0; x < d; x++) dot += vectors[i * d + x]! * sums[label * d + x]!;
    closeness[i] = dot / norms[label]!;
  }
  const quota = allocateBySize(sizes, k);
  const members: number[][] = Array.from({ length: c }, () => []);
  for (let i = 0; i < n; i++) if (quota[clusters[i]!]! > 0) members[clusters[i]!]!.push(i);
  const picks: number[] = [];
  for (let l = 0; l < c; l++) {
    if (quota[l] === 0) continue;
    const ranked = members[l]!.sort((a, b) => closeness[b]! - closeness[a]! || a - b);
    picks.push(...ranked.slice(0, quota[l]));
  }
  return Int32Array.from(picks);
}
