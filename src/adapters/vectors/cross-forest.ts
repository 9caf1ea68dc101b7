import { createRequire } from 'node:module';
import type { NeighbourGraph } from '../../core/clustering.js';
import { insertNeighbour } from '../../core/knn-lists.js';
import { treeDepth } from '../../core/projection-tree.js';
import { type Batch, Scratch, keysOf, treeOrder } from './forest-graph.js';

const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

/**
 * Leakage's search (docs/curation.md, Leakage): the pairs of items on two compared sides whose cosine reaches a
 * threshold, found by random projection trees over both sides together (forest-graph.ts's trees) whose leaves are
 * searched exactly, side against side. Each item keeps its `width` best matches across.
 */
export interface CrossParams {
  trees: number;
  leafSize: number;
  width: number;
  threshold: number;
  seed: number;
}

/** Below this many comparisons of one item with another (summed over the compared sides) the search is exact. */
export const EXACT_CROSS_LIMIT = 25_000_000;

/** Matches kept per item: enough to list an item's copies, few enough that one busy item cannot flood the pairs. */
export const CROSS_WIDTH = 10;

export function crossParams(n: number, threshold: number, trees?: number): CrossParams {
  const leafSize = 128;
  return { trees: trees ?? Math.max(8, treeDepth(n, leafSize) + 4), leafSize, width: CROSS_WIDTH, threshold, seed: 0x1ea4 };
}

/** What every thread shares: one-byte vectors (quantizeRows), each item's side, which sides are compared. */
export interface CrossContext {
  q8: Int8Array;
  d: number;
  n: number;
  /** Each item's side: 0 … sides − 1 (a split value's number, or 0 and 1 for two datasets); −1 takes no part. */
  codes: Int8Array;
  sides: number;
  /** compared[x × sides + y] = 1 when side x is compared with side y (set both ways). */
  compared: Uint8Array;
  params: CrossParams;
}

/** Total comparisons an exact search makes: the product of the sizes of every compared pair of sides. */
export function exactComparisons(codes: Int8Array, sides: number, compared: Uint8Array): number {
  const size = new Array<number>(sides).fill(0);
  for (const c of codes) if (c >= 0) size[c]!++;
  let total = 0;
  for (let x = 0; x < sides; x++) for (let y = x + 1; y < sides; y++) if (compared[x * sides + y]) total += size[x]! * size[y]!;
  return total;
}

/**
 * Among the items `ids`, each one's best matches on every side compared with its own (both directions, so an item
 * with many copies across keeps its own best too), those at or above the threshold offered to both items' lists.
 */
export function searchAcross(ctx: CrossContext, ids: ArrayLike<number>, count: number, lists: NeighbourGraph, data: Scratch, queries: Scratch, threads = 1): void {
  const { codes, sides, compared, d, params } = ctx;
  const groups: number[][] = Array.from({ length: sides }, () => []);
  for (let r = 0; r < count; r++) {
    const code = codes[ids[r]!]!;
    if (code >= 0) groups[code]!.push(ids[r]!);
  }
  for (let x = 0; x < sides; x++) {
    for (let y = 0; y < sides; y++) {
      if (x === y || !compared[x * sides + y] || groups[x]!.length === 0 || groups[y]!.length === 0) continue;
      const from = groups[x]!;
      const to = groups[y]!;
      const kk = Math.min(params.width, to.length);
      const found = usearch.exactSearch(data.gather(ctx.q8, to, to.length), queries.gather(ctx.q8, from, from.length), d, kk, 'cos' as never, threads) as unknown as Batch;
      const keys = keysOf(found);
      for (let r = 0; r < from.length; r++) {
        for (let c = 0; c < kk; c++) {
          const sim = 1 - found.distances[r * kk + c]!;
          // Best first: the rest of this row is weaker still.
          if (!(sim >= params.threshold)) break;
          const other = to[keys[2 * (r * kk + c)]!]!;
          insertNeighbour(lists, from[r]!, other, sim);
          insertNeighbour(lists, other, from[r]!, sim);
        }
      }
    }
  }
}

/** The exact search: every item against every item of the sides compared with its own, natively on `threads` threads. */
export function searchAll(ctx: CrossContext, lists: NeighbourGraph, threads: number): void {
  const all = new Int32Array(ctx.n);
  for (let i = 0; i < ctx.n; i++) all[i] = i;
  searchAcross(ctx, all, ctx.n, lists, new Scratch(ctx.n, ctx.d), new Scratch(ctx.n, ctx.d), threads);
}

/** Plants trees claimed from the shared counter cells[0] (cells[1] counts those done) until none is left. */
export function plantCrossTrees(ctx: CrossContext, lists: NeighbourGraph, cells: Int32Array): void {
  const { q8, d, n, params } = ctx;
  const data = new Scratch(params.leafSize, d);
  const queries = new Scratch(params.leafSize, d);
  for (let t = Atomics.add(cells, 0, 1); t < params.trees; t = Atomics.add(cells, 0, 1)) {
    const { order, leaves } = treeOrder(q8, d, n, params.leafSize, params.seed, t);
    for (let p = 0; p < leaves.length; p += 2) {
      const ids = order.subarray(leaves[p]!, leaves[p + 1]!);
      searchAcross(ctx, ids, ids.length, lists, data, queries);
    }
    Atomics.add(cells, 1, 1);
  }
}
