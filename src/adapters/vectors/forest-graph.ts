import { createRequire } from 'node:module';
import type { NeighbourGraph } from '../../core/clustering.js';
import { insertNeighbour } from '../../core/knn-lists.js';
import { treeDepth, treeLeaves } from '../../core/projection-tree.js';
import { Rng } from '../../core/random.js';

const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

/**
 * How the neighbour graph of more than a few thousand items is built: random projection trees whose leaves
 * are searched exactly, then rounds of neighbourhood joins, all on one-byte vectors. Chosen by N with
 * bench/index-graph.ts (see docs/indexing.md).
 */
export interface ForestParams {
  /** Trees planted; each item meets a leaf's worth of others in each. */
  trees: number;
  leafSize: number;
  /** Neighbours kept per item while building (cut to k at the end): wider lists carry more of a cluster into the joins. */
  width: number;
  maxRounds: number;
  /** Joins stop once a round changes fewer than this × n × width slots. */
  minChangeFraction: number;
  /**
   * More trees, afterwards, for the items whose best neighbour is weakest (this fraction of them: the outlier
   * candidates, and the items the first trees left among strangers). Only those items are searched in their
   * leaves, so such a tree costs its projections and splits, not its leaves.
   */
  rescueTrees: number;
  rescueFraction: number;
  seed: number;
}

export function forestParams(n: number): ForestParams {
  // Deeper trees separate a pair of cluster-mates more often, so the tree count grows with the depth.
  const leafSize = 64;
  const depth = treeDepth(n, leafSize);
  return { trees: Math.max(8, 2 * depth + 2), leafSize, width: 12, maxRounds: 8, minChangeFraction: 0.001, rescueTrees: Math.max(8, 2 * depth + 8), rescueFraction: 0.05, seed: 0x10c5 };
}

/** What every thread of a build shares: the quantised vectors and the parameters. */
export interface ForestContext {
  q8: Int8Array;
  d: number;
  n: number;
  params: ForestParams;
}

/** Work handed out in blocks through a shared counter, so threads that finish early take more. */
export interface WorkCounters {
  /** [next unit to claim, units done] */
  cells: Int32Array;
}

/**
 * Writes unit vectors as one byte per dimension into `target`, each row scaled so that its largest component is
 * ±127: a cosine needs no common scale, and a row's own scale keeps its rounding error near 0.001.
 */
export function quantizeRows(vectors: Float32Array, d: number, target: Int8Array): void {
  const n = vectors.length / d;
  for (let i = 0; i < n; i++) {
    let max = 0;
    for (let x = 0; x < d; x++) max = Math.max(max, Math.abs(vectors[i * d + x]!));
    const scale = max > 0 ? 127 / max : 0;
    for (let x = 0; x < d; x++) target[i * d + x] = Math.round(vectors[i * d + x]! * scale);
  }
}

/** Rows gathered for one native call. usearch's exactSearch reads its arrays from the start of their buffer, so this one owns its buffer. */
export class Scratch {
  readonly rows: Int8Array;
  constructor(
    readonly capacity: number,
    readonly d: number,
  ) {
    this.rows = new Int8Array(capacity * d);
  }

  gather(q8: Int8Array, ids: ArrayLike<number>, count: number): Int8Array {
    const { d } = this;
    for (let r = 0; r < count; r++) this.rows.set(q8.subarray(ids[r]! * d, ids[r]! * d + d), r * d);
    return this.rows.subarray(0, count * d);
  }
}

export type Batch = { keys: BigUint64Array; distances: Float32Array };

/** The keys' low 32 bits (little-endian), read without making a BigInt per key: at a million items that allocation cost more than the search. */
export function keysOf(batch: Batch): Uint32Array {
  return new Uint32Array(batch.keys.buffer, batch.keys.byteOffset, batch.keys.length * 2);
}

/** Exact cosine neighbours among `count` items, each item's best ones offered to its list; returns the slots changed. */
export function joinGroup(ctx: ForestContext, ids: ArrayLike<number>, count: number, lists: NeighbourGraph, scratch: Scratch): number {
  if (count < 2) return 0;
  const rows = scratch.gather(ctx.q8, ids, count);
  const kk = Math.min(lists.k + 1, count);
  const found = usearch.exactSearch(rows, rows, ctx.d, kk, 'cos' as never, 1) as unknown as Batch;
  const keys = keysOf(found);
  let changed = 0;
  for (let r = 0; r < count; r++) {
    const i = ids[r]!;
    for (let c = 0; c < kk; c++) {
      const other = ids[keys[2 * (r * kk + c)]!]!;
      if (insertNeighbour(lists, i, other, 1 - found.distances[r * kk + c]!)) changed++;
    }
  }
  return changed;
}

/**
 * The leaf search of a rescue tree: only the `needy` items of the leaf are compared with the whole leaf, and each
 * match goes into both lists (so the joins that follow spread it). Returns the slots changed.
 */
export function joinNeedy(ctx: ForestContext, ids: ArrayLike<number>, count: number, needy: Uint8Array, lists: NeighbourGraph, scratch: Scratch, queries: Scratch): number {
  const asking: number[] = [];
  for (let r = 0; r < count; r++) if (needy[ids[r]!]) asking.push(ids[r]!);
  if (asking.length === 0 || count < 2) return 0;
  const rows = scratch.gather(ctx.q8, ids, count);
  const kk = Math.min(lists.k + 1, count);
  const found = usearch.exactSearch(rows, queries.gather(ctx.q8, asking, asking.length), ctx.d, kk, 'cos' as never, 1) as unknown as Batch;
  const keys = keysOf(found);
  let changed = 0;
  asking.forEach((i, r) => {
    for (let c = 0; c < kk; c++) {
      const other = ids[keys[2 * (r * kk + c)]!]!;
      const sim = 1 - found.distances[r * kk + c]!;
      if (insertNeighbour(lists, i, other, sim)) changed++;
      if (insertNeighbour(lists, other, i, sim)) changed++;
    }
  });
  return changed;
}

const PROJECT_CHUNK = 16_384;

/**
 * One tree: each item projected on the tree's `depth` random directions (natively), split at medians, each leaf
 * searched exactly, or, with `needy`, only for the needy items in it (a rescue tree).
 */
export function plantTree(ctx: ForestContext, tree: number, lists: NeighbourGraph, scratch: Scratch, needy: Uint8Array | null = null): number {
  const { q8, d, n, params } = ctx;
  const { order, leaves } = treeOrder(q8, d, n, params.leafSize, params.seed, tree);
  let changed = 0;
  const queries = needy ? new Scratch(params.leafSize, d) : null;
  for (let p = 0; p < leaves.length; p += 2) {
    const ids = order.subarray(leaves[p]!, leaves[p + 1]!);
    changed += needy ? joinNeedy(ctx, ids, ids.length, needy, lists, scratch, queries!) : joinGroup(ctx, ids, ids.length, lists, scratch);
  }
  return changed;
}

/**
 * Tree number `tree` of a forest seeded with `seed`: each item projected on the tree's depth random directions
 * (natively), split at medians; the items in leaf order and the leaves' bounds (treeLeaves).
 */
export function treeOrder(q8: Int8Array, d: number, n: number, leafSize: number, seed: number, tree: number): { order: Int32Array; leaves: Int32Array } {
  const depth = treeDepth(n, leafSize);
  // Level after level: row `level` holds every item's projection on that level's direction.
  const projections = new Float32Array(n * depth);
  if (depth > 0) {
    const rng = new Rng(seed * 1_000_003 + tree);
    const directions = new Int8Array(depth * d);
    for (let x = 0; x < directions.length; x++) directions[x] = Math.max(-127, Math.min(127, Math.round(40 * rng.gaussian())));
    for (let start = 0; start < n; start += PROJECT_CHUNK) {
      const end = Math.min(n, start + PROJECT_CHUNK);
      const chunk = q8.slice(start * d, end * d);
      const found = usearch.exactSearch(directions, chunk, d, depth, 'cos' as never, 1) as unknown as Batch;
      const keys = keysOf(found);
      for (let r = 0; r < end - start; r++) {
        for (let c = 0; c < depth; c++) projections[keys[2 * (r * depth + c)]! * n + start + r] = -found.distances[r * depth + c]!;
      }
    }
  }
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return { order, leaves: treeLeaves(order, projections, depth, leafSize) };
}

/**
 * Plants trees claimed from `counters` until none is left: the first trees, or with `needy` the rescue trees
 * (seeded after the first ones, so they split differently).
 */
export function plantTrees(ctx: ForestContext, lists: NeighbourGraph, counters: WorkCounters, needy: Uint8Array | null = null): void {
  const scratch = new Scratch(ctx.params.leafSize, ctx.d);
  const { trees, rescueTrees } = ctx.params;
  const count = needy ? rescueTrees : trees;
  for (let t = Atomics.add(counters.cells, 0, 1); t < count; t = Atomics.add(counters.cells, 0, 1)) {
    plantTree(ctx, needy ? trees + t : t, lists, scratch, needy);
    Atomics.add(counters.cells, 1, 1);
  }
}

export const JOIN_BLOCK = 4096;

export interface JoinInput {
  /** The lists as the round found them (read only). */
  old: NeighbourGraph;
  reverse: { start: Int32Array; items: Int32Array };
  /** Items whose neighbourhood changed in the last round; null in the first round (all). */
  changed: Uint8Array | null;
}

/**
 * One round of neighbourhood joins over blocks claimed from `counters`: for each item, its list and the items
 * that list it are compared with each other exactly (a native call per neighbourhood), so two items that share
 * a neighbour find each other. Writes into `lists` (a copy of the old lists).
 */
export function joinNeighbourhoods(ctx: ForestContext, input: JoinInput, lists: NeighbourGraph, counters: WorkCounters): void {
  const { n } = ctx;
  const { old, reverse, changed } = input;
  const k = old.k;
  const scratch = new Scratch(1 + k + (reverse.items.length > 0 ? maxRow(reverse) : 0), ctx.d);
  const group = new Int32Array(scratch.capacity);
  const blocks = Math.ceil(n / JOIN_BLOCK);
  for (let b = Atomics.add(counters.cells, 0, 1); b < blocks; b = Atomics.add(counters.cells, 0, 1)) {
    for (let i = b * JOIN_BLOCK; i < Math.min(n, (b + 1) * JOIN_BLOCK); i++) {
      if (changed && !changed[i]) continue;
      let count = 0;
      group[count++] = i;
      for (let j = 0; j < k; j++) {
        const o = old.neighbours[i * k + j]!;
        if (o >= 0) group[count++] = o;
      }
      for (let q = reverse.start[i]!; q < reverse.start[i + 1]!; q++) {
        const o = reverse.items[q]!;
        if (!listed(group, count, o)) group[count++] = o;
      }
      joinGroup(ctx, group, count, lists, scratch);
    }
    Atomics.add(counters.cells, 1, 1);
  }
}

function listed(group: Int32Array, count: number, item: number): boolean {
  for (let r = 0; r < count; r++) if (group[r] === item) return true;
  return false;
}

function maxRow(reverse: { start: Int32Array }): number {
  let max = 0;
  for (let i = 0; i + 1 < reverse.start.length; i++) max = Math.max(max, reverse.start[i + 1]! - reverse.start[i]!);
  return max;
}
