import { Crew, crewData, farthestFirst, projectRows } from '../../adapters/vectors/k-center.js';
import { kdOrder } from '../../core/kd-order.js';
import { principalAxes } from '../../core/principal-axes.js';
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
  /** diverse: pairs × dimensions the traversal may cost before it works on principal axes instead (tests lower it). */
  budget?: number;
}

export interface SelectionOutput {
  /** Item indices, in pick order. */
  picks: Int32Array;
  /** diverse: the space the traversal ran in (its dimensions; `exact` when they are the embedding's), and its covering radius as a cosine distance. */
  dims: number;
  exact: boolean;
  radius: number | null;
}

/**
 * Pairs × dimensions a diverse selection may cost before it runs on principal axes (about 5 ns each on one of the
 * 2 loaded cores here, docs/curation.md): 100k items × 1,000 picks keep 400 dimensions, 1M × 10,000 the floor of 16.
 */
export const DIVERSE_BUDGET = 4e10;
/** Fewest principal axes a large selection keeps. */
export const MIN_AXES = 16;

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

/** How many dimensions a traversal of n items to k picks works in: all of them within the budget, else principal axes (a multiple of 8). */
export function traversalDims(n: number, k: number, d: number, budget = DIVERSE_BUDGET): number {
  const affordable = Math.floor(budget / Math.max(1, n * k));
  if (affordable >= d) return d;
  return Math.max(MIN_AXES, Math.floor(affordable / 8) * 8);
}

export async function computeSelection(input: SelectionInput, progress: (fraction: number, message: string) => void): Promise<SelectionOutput> {
  const { vectors, dimensions: d, k } = input;
  const n = vectors.length / d;
  centreRows(vectors, d, input.mean);
  if (input.strategy === 'representative') return { picks: representatives(vectors, d, input.clusters!, k), dims: d, exact: true, radius: null };
  const dims = traversalDims(n, k, d, input.budget);
  const threads = Math.max(1, Math.min(input.threads, Math.ceil(n / 50_000)));
  let crew: Crew;
  if (dims === d) crew = new Crew(crewData(vectors, d, threads));
  else {
    progress(0.05, `principal axes: ${d} → ${dims} dimensions`);
    const data = crewData(new Float32Array(new SharedArrayBuffer(n * dims * 4)), dims, threads, vectors, d);
    data.axes.set(principalAxes(vectors, d, dims, 5000));
    crew = new Crew(data);
    projectRows(crew);
  }
  try {
    // Leaves of a k-d order: the traversal skips a leaf whose box is farther from a pick than its farthest item.
    const rows = crew.data.rows;
    const order = kdOrder(rows, dims, crew.data.leaf);
    permuteRows(rows, dims, order);
    const start = order.indexOf(0);
    const result = farthestFirst(crew, k, start, (picked) => progress(0.1 + (0.9 * picked) / k, `picked ${picked} of ${k}`));
    const picks = result.picks.map((i) => order[i]!);
    // Squared distance between unit vectors is 2·(1 − cos): the radius as a cosine distance.
    return { picks, dims, exact: dims === d, radius: result.finalRadius / 2 };
  } finally {
    await crew.close();
  }
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
