import type { NeighbourGraph } from './clustering.js';

/** How long refinement goes on: at most `maxRounds`, and it stops once a round changes fewer than `minChangeFraction` × n × k slots. */
export interface RefineOptions {
  maxRounds: number;
  minChangeFraction: number;
}

export const DEFAULT_REFINE: RefineOptions = { maxRounds: 6, minChangeFraction: 0.001 };

/** How many of a neighbour's own neighbours (and of the items listing it) are looked at: the best ones carry the news, and wide lists would cost k² per item. */
const FANOUT = 10;

/**
 * Improves an approximate k-NN graph in place by NN-descent: each item looks at the neighbours of its
 * neighbours and at the items that list it (reverse neighbours), with exact cosine similarity on the
 * unit vectors, and keeps the best k. An approximate index misses an item's true neighbours when its
 * search never reaches their region; once any one of them is found, the rest follow through it. After
 * the first round only lists that changed are expanded again. Similarities are recomputed exactly first,
 * so the graph's numbers do not depend on the index's quantisation. Returns the slots changed per round.
 */
export function refineGraph(graph: NeighbourGraph, vectors: Float32Array, d: number, options: RefineOptions = DEFAULT_REFINE, onRound?: (round: number, changed: number) => void): number[] {
  const { n, k, neighbours, similarities } = graph;
  exactSimilarities(graph, vectors, d);
  const stamp = new Int32Array(n).fill(-1);
  let changedBefore = new Uint8Array(n).fill(1);
  const history: number[] = [];
  for (let round = 0; round < options.maxRounds; round++) {
    const old = neighbours.slice();
    const fan = Math.min(k, FANOUT);
    const reverse = reverseLists(old, n, k, fan);
    const changedNow = new Uint8Array(n);
    let changed = 0;
    for (let i = 0; i < n; i++) {
      stamp[i] = i;
      for (let j = 0; j < k; j++) if (old[i * k + j]! >= 0) stamp[old[i * k + j]!] = i;
      const consider = (c: number) => {
        if (c < 0 || stamp[c] === i) return;
        stamp[c] = i;
        if (insert(neighbours, similarities, i * k, k, c, dot(vectors, i * d, c * d, d))) {
          changed++;
          changedNow[i] = 1;
        }
      };
      for (let j = 0; j < k; j++) {
        const o = old[i * k + j]!;
        if (o < 0 || !(changedBefore[o] || changedBefore[i])) continue;
        for (let q = 0; q < fan; q++) consider(old[o * k + q]!);
        for (let q = reverse.start[o]!; q < reverse.start[o + 1]!; q++) consider(reverse.items[q]!);
      }
      for (let q = reverse.start[i]!; q < reverse.start[i + 1]!; q++) {
        const o = reverse.items[q]!;
        consider(o);
        if (changedBefore[o] || changedBefore[i]) for (let p = 0; p < fan; p++) consider(old[o * k + p]!);
      }
    }
    history.push(changed);
    onRound?.(round, changed);
    changedBefore = changedNow;
    if (changed < options.minChangeFraction * n * k) break;
  }
  return history;
}

/** The first `k` of each (sorted) list. */
export function truncateGraph(graph: NeighbourGraph, k: number): NeighbourGraph {
  if (graph.k === k) return graph;
  const neighbours = new Int32Array(graph.n * k);
  const similarities = new Float32Array(graph.n * k);
  for (let i = 0; i < graph.n; i++) {
    neighbours.set(graph.neighbours.subarray(i * graph.k, i * graph.k + k), i * k);
    similarities.set(graph.similarities.subarray(i * graph.k, i * graph.k + k), i * k);
  }
  return { n: graph.n, k, neighbours, similarities };
}

/** Replaces the index's (quantised) similarities by exact ones and re-sorts each list, best first. */
function exactSimilarities(graph: NeighbourGraph, vectors: Float32Array, d: number): void {
  const { n, k, neighbours, similarities } = graph;
  const ids = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let j = 0; j < k; j++) {
      const o = neighbours[i * k + j]!;
      if (o >= 0 && o !== i) ids[count++] = o;
      neighbours[i * k + j] = -1;
    }
    for (let j = 0; j < count; j++) insert(neighbours, similarities, i * k, k, ids[j]!, dot(vectors, i * d, ids[j]! * d, d));
  }
}

/** Up to `cap` items that list each item, as compressed rows (the first in item order, so it is deterministic). */
function reverseLists(lists: Int32Array, n: number, k: number, cap: number): { start: Int32Array; items: Int32Array } {
  const count = new Int32Array(n);
  for (let e = 0; e < n * k; e++) {
    const o = lists[e]!;
    if (o >= 0 && count[o]! < cap) count[o] = count[o]! + 1;
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i]! + count[i]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(start[n]!);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const o = lists[i * k + j]!;
      if (o < 0 || fill[o]! >= start[o + 1]!) continue;
      items[fill[o]!] = i;
      fill[o] = fill[o]! + 1;
    }
  }
  return { start, items };
}

/** Puts `item` into the sorted list at `base` if it beats the last slot and is not there yet (ties keep the earlier entry). */
function insert(neighbours: Int32Array, similarities: Float32Array, base: number, k: number, item: number, sim: number): boolean {
  if (neighbours[base + k - 1]! >= 0 && !(sim > similarities[base + k - 1]!)) return false;
  for (let j = 0; j < k; j++) if (neighbours[base + j] === item) return false;
  let p = k - 1;
  while (p > 0 && (neighbours[base + p - 1]! < 0 || similarities[base + p - 1]! < sim)) {
    neighbours[base + p] = neighbours[base + p - 1]!;
    similarities[base + p] = similarities[base + p - 1]!;
    p--;
  }
  neighbours[base + p] = item;
  similarities[base + p] = sim;
  return true;
}

function dot(v: Float32Array, a: number, b: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let x = 0;
  for (; x + 3 < d; x += 4) {
    s0 += v[a + x]! * v[b + x]!;
    s1 += v[a + x + 1]! * v[b + x + 1]!;
    s2 += v[a + x + 2]! * v[b + x + 2]!;
    s3 += v[a + x + 3]! * v[b + x + 3]!;
  }
  for (; x < d; x++) s0 += v[a + x]! * v[b + x]!;
  return s0 + s1 + s2 + s3;
}
