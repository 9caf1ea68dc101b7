import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

export interface PoolKCenterResult {
  /** Row indices of the pool, in pick order. */
  picks: Int32Array;
  /** The largest cosine distance of a pool row to its nearest pick. */
  radius: number;
}

/**
 * Greedy k-center (farthest-first) over `pool` (m rows × d, one byte per dimension, quantizeRows), by cosine distance
 * in the full space: per pick one native brute-force pass (usearch exactSearch, about 90 ns a pair here) gives every
 * row its distance to the new pick; the rows' nearest-pick distances and the argmax stay in a JS loop (a few ns a row).
 * m·k pairs in all. Ties go to the lowest row. `onPick` is called every `every` picks (progress, abort: it may throw).
 */
export function poolFarthestFirst(pool: Int8Array, d: number, k: number, threads: number, onPick: (picked: number) => void, every = 64): PoolKCenterResult {
  const m = pool.length / d;
  if (k < 1 || k > m) throw new RangeError(`k must be between 1 and ${m}`);
  // exactSearch reads its arrays from the start of their buffer: each gets its own.
  const rows = pool.byteOffset === 0 && pool.buffer.byteLength === pool.length ? pool : pool.slice();
  const pickRow = new Int8Array(d);
  const minDist = new Float32Array(m).fill(Number.POSITIVE_INFINITY);
  const picks = new Int32Array(k);
  let next = 0;
  for (let p = 0; p < k; p++) {
    picks[p] = next;
    minDist[next] = -1;
    pickRow.set(rows.subarray(next * d, next * d + d));
    const found = usearch.exactSearch(pickRow, rows, d, 1, 'cos' as never, threads) as unknown as { distances: Float32Array };
    const dist = found.distances;
    let far = -1;
    let farRow = 0;
    for (let i = 0; i < m; i++) {
      let current = minDist[i]!;
      if (current < 0) continue;
      const value = dist[i]!;
      if (value < current) minDist[i] = current = value;
      if (current > far) {
        far = current;
        farRow = i;
      }
    }
    next = farRow;
    if ((p + 1) % every === 0) onPick(p + 1);
  }
  let radius = 0;
  for (let i = 0; i < m; i++) if (minDist[i]! > radius) radius = minDist[i]!;
  return { picks, radius };
}
