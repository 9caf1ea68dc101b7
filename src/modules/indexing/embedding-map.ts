import { UMAP } from 'umap-js';
import type { NeighbourGraph } from '../../core/clustering.js';
import { Rng } from '../../core/random.js';
import { quantizeRows } from '../../adapters/vectors/forest-graph.js';
import { exactNearest } from '../../adapters/vectors/usearch-index.js';

/**
 * Items UMAP is fitted on. umap-js optimises ~S × 15 edges for MAP_EPOCHS epochs in plain JavaScript: 5,000 items
 * take a few seconds (bench/curation/map.ts), which is enough to lay out every cluster of thousands of them; the rest
 * are placed from their neighbours.
 */
export const MAP_SAMPLE = 5000;
export const MAP_NEIGHBOURS = 15;
export const MAP_MIN_DIST = 0.1;
export const MAP_EPOCHS = 200;
const MAP_SEED = 0x6d6170;
/** σ of the placement weights is the mean distance gap divided by this. */
const WEIGHT_SHARPNESS = 4;
/** Jitter radius, as a share of the median distance from a sampled item to its nearest sampled neighbour on the map. */
const JITTER_SHARE = 0.25;

/** Where the map's points lie: after normalising, within [0, 1] on the longer side (aspect kept). */
export interface MapBounds {
  min_x: number;
  min_y: number;
  max_x: number;
  max_y: number;
}

export interface EmbeddingMap {
  x: Float32Array;
  y: Float32Array;
  /** Items UMAP was fitted on. */
  sample: number;
  /** Half-width of the deterministic jitter, in map units: media attached later are jittered the same way. */
  jitter: number;
  bounds: MapBounds;
  seconds: { umap: number; placement: number };
}

/** What the version's index params keep of its map (`params.map`): how it was made, and what placing more media needs. */
export interface MapParams {
  sample: number;
  neighbours: number;
  min_dist: number;
  epochs: number;
  jitter: number;
  bounds: MapBounds;
  points: number;
  seconds: EmbeddingMap['seconds'];
}

export function mapParams(map: EmbeddingMap): MapParams {
  return { sample: map.sample, neighbours: MAP_NEIGHBOURS, min_dist: MAP_MIN_DIST, epochs: MAP_EPOCHS, jitter: map.jitter, bounds: map.bounds, points: map.x.length, seconds: map.seconds };
}

/** Row i of the index's (centred) vectors, written into `out` as floats; any positive scale per row will do. */
export type RowReader = (i: number, out: Float32Array) => void;

/**
 * A 2D layout of n items: UMAP (umap-js, seeded) on a seeded sample of up to MAP_SAMPLE items, its own neighbour
 * lists found exactly (native brute force), then every other item placed at the weighted mean of its graph
 * neighbours already placed, in breadth-first order from the sample over the graph's edges both ways; an item
 * whose component holds no sampled item starts at its nearest sampled item. A small deterministic jitter keeps
 * duplicates from stacking. O(S² d) native + O(S × epochs) for UMAP, O(n k) for the rest.
 */
export function computeMap(n: number, d: number, readRow: RowReader, graph: NeighbourGraph, threads: number, sampleSize = MAP_SAMPLE): EmbeddingMap {
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  if (n === 0) return { x, y, sample: 0, jitter: 0, bounds: { min_x: 0, min_y: 0, max_x: 0, max_y: 0 }, seconds: { umap: 0, placement: 0 } };
  let t = performance.now();
  const rng = new Rng(MAP_SEED);
  const sample = sampleOf(n, Math.min(n, sampleSize), rng);
  const s = sample.length;
  const sampleVectors = new Float32Array(s * d);
  const row = new Float32Array(d);
  for (let r = 0; r < s; r++) {
    readRow(sample[r]!, row);
    normalise(row);
    sampleVectors.set(row, r * d);
  }
  const layout = fitUmap(sampleVectors, d, s, threads, rng);
  const placed = new Uint8Array(n);
  for (let r = 0; r < s; r++) {
    x[sample[r]!] = layout.x[r]!;
    y[sample[r]!] = layout.y[r]!;
    placed[sample[r]!] = 1;
  }
  const umapSeconds = (performance.now() - t) / 1000;

  t = performance.now();
  const incoming = incomingEdges(graph);
  const queue = new Int32Array(n);
  const queued = new Uint8Array(n);
  let tail = 0;
  const enqueueNeighbours = (i: number) => {
    forEachNeighbour(graph, incoming, i, (j) => {
      if (!placed[j] && !queued[j]) {
        queued[j] = 1;
        queue[tail++] = j;
      }
    });
  };
  let head = 0;
  const spread = () => {
    for (; head < tail; head++) {
      const i = queue[head]!;
      const [px, py] = weightedMean(graph, incoming, i, placed, x, y);
      x[i] = px;
      y[i] = py;
      placed[i] = 1;
      enqueueNeighbours(i);
    }
  };
  for (let r = 0; r < s; r++) enqueueNeighbours(sample[r]!);
  spread();
  // Components without a sampled item: one member of each starts among its nearest sampled items, found in one batch.
  const starts = componentStarts(graph, incoming, placed);
  placeStarts(starts, d, readRow, sampleVectors, sample, x, y, threads);
  for (const i of starts) {
    placed[i] = 1;
    queued[i] = 1;
  }
  for (const i of starts) enqueueNeighbours(i);
  spread();
  const jitter = JITTER_SHARE * layout.nearestDistance;
  for (let i = 0; i < n; i++) {
    x[i] = x[i]! + jitter * jitterOf(i, 0);
    y[i] = y[i]! + jitter * jitterOf(i, 1);
  }
  const scale = normaliseLayout(x, y);
  return { x, y, sample: s, jitter: jitter * scale, bounds: boundsOf(x, y), seconds: { umap: umapSeconds, placement: (performance.now() - t) / 1000 } };
}

/**
 * Where a media attached without a reindex goes: the weighted mean (mapWeights) of its neighbours' positions, given
 * as cosine similarities, plus the map's jitter keyed by `key` (its ordinal). Null when no neighbour is on the map.
 */
export function placeAmong(neighbours: Array<{ x: number; y: number; similarity: number }>, jitter: number, key: number): { x: number; y: number } | null {
  if (neighbours.length === 0) return null;
  const w = mapWeights(neighbours.map((n) => 1 - n.similarity));
  let sx = 0;
  let sy = 0;
  let sw = 0;
  neighbours.forEach((n, j) => {
    sx += w[j]! * n.x;
    sy += w[j]! * n.y;
    sw += w[j]!;
  });
  return { x: sx / sw + jitter * jitterOf(key, 0), y: sy / sw + jitter * jitterOf(key, 1) };
}

/**
 * Weights of neighbours at cosine distances `dist`: exp(-(d - d_min) / σ), σ a quarter of the mean of d - d_min (at
 * least 0.001), like UMAP's edge weights but sharper: the nearest dominate, so a near-duplicate sits on its twin rather
 * than between the twin and the rest of its neighbours (with σ the plain mean, an edit in a set of 11 photos landed
 * nearer an unrelated photo than its original).
 */
export function mapWeights(dist: number[]): number[] {
  const min = Math.min(...dist);
  const sigma = Math.max(1e-3, dist.reduce((a, v) => a + v - min, 0) / dist.length / WEIGHT_SHARPNESS);
  return dist.map((v) => Math.exp(-(v - min) / sigma));
}

/** Bounds of a set of points; empty sets give zeros. */
export function boundsOf(x: ArrayLike<number>, y: ArrayLike<number>): MapBounds {
  if (x.length === 0) return { min_x: 0, min_y: 0, max_x: 0, max_y: 0 };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < x.length; i++) {
    minX = Math.min(minX, x[i]!);
    minY = Math.min(minY, y[i]!);
    maxX = Math.max(maxX, x[i]!);
    maxY = Math.max(maxY, y[i]!);
  }
  return { min_x: minX, min_y: minY, max_x: maxX, max_y: maxY };
}

/** A seeded, sorted sample of `size` of n indices (partial Fisher–Yates). */
function sampleOf(n: number, size: number, rng: Rng): Int32Array {
  if (size === n) return Int32Array.from({ length: n }, (_, i) => i);
  const picked = new Map<number, number>();
  const out = new Int32Array(size);
  for (let r = 0; r < size; r++) {
    const j = r + Math.floor(rng.uniform() * (n - r));
    out[r] = picked.get(j) ?? j;
    picked.set(j, picked.get(r) ?? r);
  }
  return out.sort();
}

/** UMAP of s unit rows, its neighbour lists exact; tiny sets get a line. Also the median nearest-neighbour distance on the layout. */
function fitUmap(vectors: Float32Array, d: number, s: number, threads: number, rng: Rng): { x: Float64Array; y: Float64Array; nearestDistance: number } {
  const x = new Float64Array(s);
  const y = new Float64Array(s);
  // A small set gets fewer neighbours (itself included): with k near s every item is every other's neighbour and the layout says nothing.
  const k = Math.min(MAP_NEIGHBOURS, s - 1, Math.max(2, Math.floor(s / 3)));
  if (k < 2) {
    for (let i = 0; i < s; i++) x[i] = i;
    return { x, y, nearestDistance: 0.05 };
  }
  // One byte per dimension: the brute force over the sample's pairs costs a third of float32's (~2 CPU s at 5,000).
  const q8 = new Int8Array(s * d);
  quantizeRows(vectors, d, q8);
  const found = exactNearest(q8, q8, d, k, threads);
  const indices: number[][] = [];
  const distances: number[][] = [];
  for (let i = 0; i < s; i++) {
    const ids = [i];
    const dist = [0];
    for (let j = 0; j < k && ids.length < k; j++) {
      const other = found.ids[i * k + j]!;
      if (other < 0 || other === i) continue;
      ids.push(other);
      dist.push(Math.max(0, 1 - found.similarities[i * k + j]!));
    }
    // Exact copies of i may take its own place in the list: the list is filled with the farthest found.
    while (ids.length < k) {
      ids.push(ids.at(-1)!);
      dist.push(dist.at(-1)!);
    }
    indices.push(ids);
    distances.push(dist);
  }
  const umap = new UMAP({ nComponents: 2, nNeighbors: k, minDist: MAP_MIN_DIST, nEpochs: MAP_EPOCHS, random: () => rng.uniform() });
  umap.setPrecomputedKNN(indices, distances);
  // The neighbour lists are given, so umap-js reads only how many rows there are.
  const embedding = umap.fit(Array.from({ length: s }, () => []));
  embedding.forEach(([ex, ey], i) => {
    x[i] = ex!;
    y[i] = ey!;
  });
  const nearest = indices.map((ids, i) => Math.hypot(x[ids[1]!]! - x[i]!, y[ids[1]!]! - y[i]!)).sort((a, b) => a - b);
  return { x, y, nearestDistance: nearest[Math.floor(s / 2)]! };
}

/** For each item, the edges (row × k + slot) pointing at it: the graph's lists are one-way. CSR. */
function incomingEdges(graph: NeighbourGraph): { start: Int32Array; edges: Int32Array } {
  const { n, k, neighbours } = graph;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < n * k; e++) if (neighbours[e]! >= 0) start[neighbours[e]! + 1] = start[neighbours[e]! + 1]! + 1;
  for (let i = 0; i < n; i++) start[i + 1] = start[i + 1]! + start[i]!;
  const fill = start.slice(0, n);
  const edges = new Int32Array(start[n]!);
  for (let e = 0; e < n * k; e++) if (neighbours[e]! >= 0) edges[fill[neighbours[e]!]!++] = e;
  return { start, edges };
}

type Incoming = ReturnType<typeof incomingEdges>;

function forEachNeighbour(graph: NeighbourGraph, incoming: Incoming, i: number, visit: (j: number, similarity: number) => void): void {
  for (let j = 0; j < graph.k; j++) {
    const other = graph.neighbours[i * graph.k + j]!;
    if (other >= 0 && other !== i) visit(other, graph.similarities[i * graph.k + j]!);
  }
  for (let e = incoming.start[i]!; e < incoming.start[i + 1]!; e++) {
    const edge = incoming.edges[e]!;
    visit(Math.floor(edge / graph.k), graph.similarities[edge]!);
  }
}

const scratchDist: number[] = [];
const scratchX: number[] = [];
const scratchY: number[] = [];

function weightedMean(graph: NeighbourGraph, incoming: Incoming, i: number, placed: Uint8Array, x: Float32Array, y: Float32Array): [number, number] {
  scratchDist.length = 0;
  scratchX.length = 0;
  scratchY.length = 0;
  forEachNeighbour(graph, incoming, i, (j, similarity) => {
    if (!placed[j]) return;
    scratchDist.push(1 - similarity);
    scratchX.push(x[j]!);
    scratchY.push(y[j]!);
  });
  let min = Infinity;
  let sum = 0;
  for (const v of scratchDist) min = Math.min(min, v);
  for (const v of scratchDist) sum += v - min;
  const sigma = Math.max(1e-3, sum / scratchDist.length / WEIGHT_SHARPNESS);
  let sx = 0;
  let sy = 0;
  let sw = 0;
  for (let j = 0; j < scratchDist.length; j++) {
    const w = Math.exp(-(scratchDist[j]! - min) / sigma);
    sx += w * scratchX[j]!;
    sy += w * scratchY[j]!;
    sw += w;
  }
  return [sx / sw, sy / sw];
}

/** One unplaced item of each component of the graph (edges both ways) that holds no placed item. */
function componentStarts(graph: NeighbourGraph, incoming: Incoming, placed: Uint8Array): number[] {
  const seen = placed.slice();
  const stack: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < graph.n; i++) {
    if (seen[i]) continue;
    starts.push(i);
    seen[i] = 1;
    stack.push(i);
    while (stack.length > 0) {
      forEachNeighbour(graph, incoming, stack.pop()!, (j) => {
        if (!seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      });
    }
  }
  return starts;
}

/** Rows searched against the landmarks per native call. */
const START_CHUNK = 8192;
const START_NEIGHBOURS = 3;
/** Every how many sampled items one is a landmark: 1,000 of 5,000, so 50k starts cost ~4 CPU s (i8 brute force). */
const LANDMARK_EVERY = 5;

/**
 * Puts each start at the weighted mean of its START_NEIGHBOURS nearest landmarks (sampled items), by exact cosine on
 * one byte per dimension: a brute force over pairs costs ~35 ns a pair whatever the dimension, so fewer landmarks,
 * not fewer dimensions, keeps a million-item map with tens of thousands of separate components fast.
 */
function placeStarts(starts: number[], d: number, readRow: RowReader, sampleVectors: Float32Array, sample: Int32Array, x: Float32Array, y: Float32Array, threads: number): void {
  if (starts.length === 0) return;
  const landmarks = Int32Array.from({ length: Math.ceil(sample.length / LANDMARK_EVERY) }, (_, r) => r * LANDMARK_EVERY);
  const landmarkRows = new Int8Array(landmarks.length * d);
  landmarks.forEach((r, l) => quantizeRows(sampleVectors.subarray(r * d, (r + 1) * d), d, landmarkRows.subarray(l * d, (l + 1) * d)));
  const row = new Float32Array(d);
  for (let from = 0; from < starts.length; from += START_CHUNK) {
    const chunk = starts.slice(from, from + START_CHUNK);
    const queries = new Int8Array(chunk.length * d);
    chunk.forEach((i, r) => {
      readRow(i, row);
      quantizeRows(row, d, queries.subarray(r * d, (r + 1) * d));
    });
    const found = exactNearest(landmarkRows, queries, d, START_NEIGHBOURS, threads);
    chunk.forEach((i, r) => {
      const near: Array<{ x: number; y: number; similarity: number }> = [];
      for (let c = 0; c < START_NEIGHBOURS; c++) {
        const id = found.ids[r * START_NEIGHBOURS + c]!;
        const item = id >= 0 ? sample[landmarks[id]!]! : -1;
        if (item >= 0) near.push({ x: x[item]!, y: y[item]!, similarity: found.similarities[r * START_NEIGHBOURS + c]! });
      }
      const p = placeAmong(near, 0, i) ?? { x: 0, y: 0 };
      x[i] = p.x;
      y[i] = p.y;
    });
  }
}

/** A value in [-1, 1) from an item's key and an axis: a 32-bit integer hash, the same on every run. */
export function jitterOf(key: number, axis: number): number {
  let h = Math.imul(key ^ (axis * 0x9e3779b9), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 2147483648 - 1;
}

function normalise(v: Float32Array): void {
  let norm = 0;
  for (let c = 0; c < v.length; c++) norm += v[c]! * v[c]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let c = 0; c < v.length; c++) v[c] = v[c]! / norm;
}

/** Shifts and scales the layout in place so it starts at 0 and its longer side spans 1; returns the scale. */
function normaliseLayout(x: Float32Array, y: Float32Array): number {
  const b = boundsOf(x, y);
  const span = Math.max(b.max_x - b.min_x, b.max_y - b.min_y);
  const scale = span > 0 ? 1 / span : 1;
  for (let i = 0; i < x.length; i++) {
    x[i] = (x[i]! - b.min_x) * scale;
    y[i] = (y[i]! - b.min_y) * scale;
  }
  return scale;
}
