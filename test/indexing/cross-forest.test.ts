import { describe, expect, it } from 'vitest';
import { generate, Rng } from '../../bench/lib/synthetic-vectors.js';
import { type CrossContext, crossParams } from '../../src/adapters/vectors/cross-forest.js';
import { findAcross } from '../../src/adapters/vectors/cross-search.js';
import { quantizeRows } from '../../src/adapters/vectors/forest-graph.js';

const D = 64;

/**
 * Side 0: n synthetic items (clusters, as the index benches make them); side 1: a near copy (cosine ≈ 0.999) of each
 * of `copies` of them, then as many unrelated vectors; side 2 (when asked) another copy of the first `copies`.
 */
function sides(n: number, copies: number, third: boolean): { ctx: CrossContext; source: Int32Array } {
  const base = generate(n, D, 11);
  const extra = copies * (third ? 3 : 2);
  const total = n + extra;
  const q8 = new Int8Array(new SharedArrayBuffer(total * D));
  const codes = new Int8Array(new SharedArrayBuffer(total));
  quantizeRows(base.vectors, D, q8.subarray(0, n * D));
  const source = new Int32Array(extra).fill(-1);
  const rng = new Rng(5);
  const row = new Float32Array(D);
  for (let e = 0; e < extra; e++) {
    const kind = Math.floor(e / copies);
    const of = e % copies;
    for (let x = 0; x < D; x++) row[x] = kind === 1 ? rng.gaussian() : base.vectors[of * D + x]! + (0.03 * rng.gaussian()) / Math.sqrt(D);
    if (kind !== 1) source[e] = of;
    quantizeRows(row, D, q8.subarray((n + e) * D, (n + e + 1) * D));
    codes[n + e] = kind === 2 ? 2 : 1;
  }
  const count = third ? 3 : 2;
  const compared = new Uint8Array(count * count);
  for (let x = 0; x < count; x++) for (let y = 0; y < count; y++) compared[x * count + y] = x === y ? 0 : 1;
  return { ctx: { q8, d: D, n: total, codes, sides: count, compared, params: crossParams(total, 0.9) }, source };
}

describe('findAcross', () => {
  it('finds every near copy across the sides with trees on two workers, and nothing for unrelated items', async () => {
    const { ctx, source } = sides(3000, 150, false);
    const { lists, exact } = await findAcross(ctx, 2, new AbortController().signal, () => {}, 0);
    expect(exact).toBe(false);
    const { k, neighbours, similarities } = lists;
    for (let e = 0; e < source.length; e++) {
      const item = 3000 + e;
      const found = Array.from(neighbours.subarray(item * k, item * k + k)).filter((j) => j >= 0);
      if (source[e]! < 0) expect(found, `unrelated ${e}`).toEqual([]);
      else {
        expect(found, `copy ${e}`).toContain(source[e]);
        // Every match is on the other side and at least the threshold.
        for (let s = 0; s < found.length; s++) {
          expect(ctx.codes[found[s]!]).toBe(0);
          expect(similarities[item * k + s]).toBeGreaterThanOrEqual(0.9);
        }
      }
    }
  });

  it('compares every pair of sides, exactly below the limit, and the same as the trees', async () => {
    const { ctx, source } = sides(1500, 100, true);
    const exact = await findAcross(ctx, 2, new AbortController().signal);
    const trees = await findAcross(ctx, 2, new AbortController().signal, () => {}, 0);
    expect([exact.exact, trees.exact]).toEqual([true, false]);
    const k = exact.lists.k;
    for (let e = 0; e < source.length; e++) {
      if (source[e]! < 0) continue;
      const item = 1500 + e;
      // A copy on side 2 finds its source on side 0 and its twin on side 1 (copied from the same source).
      const twin = ctx.codes[item] === 2 ? item - 200 : item + 200;
      for (const lists of [exact.lists, trees.lists]) {
        const found = Array.from(lists.neighbours.subarray(item * k, item * k + k));
        expect(found).toContain(source[e]);
        expect(found).toContain(twin);
      }
    }
  });

  it('stops its workers when aborted', async () => {
    const { ctx } = sides(1500, 100, false);
    const controller = new AbortController();
    const search = findAcross(ctx, 2, controller.signal, () => {}, 0);
    controller.abort(new Error('shutting down'));
    await expect(search).rejects.toThrow('shutting down');
  });
});
