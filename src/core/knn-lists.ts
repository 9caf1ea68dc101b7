import type { NeighbourGraph } from './clustering.js';

/**
 * Neighbour lists of fixed width, best first, as the graph builders fill them: n × k slots of (item,
 * similarity), -1 for an empty slot. The arrays may live in shared memory, so several threads can each
 * fill their own lists and one merges them.
 */
export function emptyLists(n: number, k: number, shared = false): NeighbourGraph {
  const buffer = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const neighbours = new Int32Array(buffer(n * k * 4)).fill(-1);
  const similarities = new Float32Array(buffer(n * k * 4));
  return { n, k, neighbours, similarities };
}

/** Puts `item` into item i's list if it beats the last slot, is not i and is not there yet (ties keep the earlier entry). */
export function insertNeighbour(lists: NeighbourGraph, i: number, item: number, sim: number): boolean {
  const { k, neighbours, similarities } = lists;
  const base = i * k;
  if (item === i || item < 0) return false;
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

/** Merges `source`'s entries into `target` (same n and width); returns how many slots of `target` changed. */
export function mergeLists(target: NeighbourGraph, source: NeighbourGraph): number {
  let changed = 0;
  for (let i = 0; i < target.n; i++) {
    for (let j = 0; j < source.k; j++) {
      const o = source.neighbours[i * source.k + j]!;
      if (o < 0) break;
      if (insertNeighbour(target, i, o, source.similarities[i * source.k + j]!)) changed++;
    }
  }
  return changed;
}

/** Copies `source` into `target` slot for slot (same n and width). */
export function copyLists(target: NeighbourGraph, source: NeighbourGraph): void {
  target.neighbours.set(source.neighbours);
  target.similarities.set(source.similarities);
}

/** Up to `cap` items that list each item, as compressed rows (the first in item order, so it is deterministic). */
export function reverseNeighbours(lists: NeighbourGraph, cap: number): { start: Int32Array; items: Int32Array } {
  const { n, k, neighbours } = lists;
  const count = new Int32Array(n);
  for (let e = 0; e < n * k; e++) {
    const o = neighbours[e]!;
    if (o >= 0 && count[o]! < cap) count[o] = count[o]! + 1;
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i]! + count[i]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(start[n]!);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const o = neighbours[i * k + j]!;
      if (o < 0 || fill[o]! >= start[o + 1]!) continue;
      items[fill[o]!] = i;
      fill[o] = fill[o]! + 1;
    }
  }
  return { start, items };
}

/**
 * Items whose neighbourhood changed between `before` and `after`: an item whose list gained or lost an entry,
 * and the entries gained or lost (their reverse lists changed). Only their neighbourhoods can show anything new.
 */
export function changedItems(before: NeighbourGraph, after: NeighbourGraph): Uint8Array {
  const { n, k } = after;
  const changed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const was = before.neighbours[i * k + j]!;
      const now = after.neighbours[i * k + j]!;
      if (was === now) continue;
      changed[i] = 1;
      if (was >= 0) changed[was] = 1;
      if (now >= 0) changed[now] = 1;
    }
  }
  return changed;
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

/** Replaces every list's similarities by `similarity(i, o)` and re-sorts each list, best first. */
export function rescoreLists(lists: NeighbourGraph, similarity: (i: number, o: number) => number): void {
  const { n, k, neighbours } = lists;
  const ids = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let j = 0; j < k; j++) {
      const o = neighbours[i * k + j]!;
      if (o >= 0 && o !== i) ids[count++] = o;
      neighbours[i * k + j] = -1;
    }
    for (let j = 0; j < count; j++) insertNeighbour(lists, i, ids[j]!, similarity(i, ids[j]!));
  }
}
