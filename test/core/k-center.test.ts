import { describe, expect, it } from 'vitest';
import { Crew, crewData, farthestFirst } from '../../src/adapters/vectors/k-center.js';
import { Rng } from '../../src/core/random.js';
import { allocateBySize, selectionSize } from '../../src/core/selection.js';
import { centreRows, computeSelection, poolSize } from '../../src/modules/selection/compute-selection.js';
import { computeSelectionOffThread } from '../../src/modules/selection/selection-runner.js';

/** Plain Gonzalez, written the obvious way: the reference the threaded, early-exit version must match. */
function naive(rows: Float32Array, d: number, k: number): number[] {
  const n = rows.length / d;
  const min = new Float64Array(n).fill(Infinity);
  const picks = [0];
  for (;;) {
    const p = picks.at(-1)!;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let x = 0; x < d; x++) s += (rows[i * d + x]! - rows[p * d + x]!) ** 2;
      min[i] = Math.min(min[i]!, s);
    }
    if (picks.length === k) return picks;
    let far = 0;
    for (let i = 1; i < n; i++) if (min[i]! > min[far]!) far = i;
    picks.push(far);
  }
}

function randomRows(n: number, d: number): Float32Array {
  const rng = new Rng(29);
  const rows = new Float32Array(new SharedArrayBuffer(n * d * 4));
  for (let i = 0; i < rows.length; i++) rows[i] = rng.gaussian();
  return rows;
}

describe('farthestFirst', () => {
  it('picks what plain greedy k-center picks, on one thread and on two', async () => {
    const d = 20;
    const rows = randomRows(2000, d);
    const expected = naive(rows, d, 60);
    for (const threads of [1, 2]) {
      const crew = new Crew(crewData(rows, d, threads));
      try {
        const result = farthestFirst(crew, 60, 0, () => {});
        expect(Array.from(result.picks), `${threads} thread(s)`).toEqual(expected);
        // The radius only shrinks, and the last one reported bounds every item's distance.
        expect(Array.from(result.radius).every((r, i, all) => i === 0 || r <= all[i - 1]!)).toBe(true);
        expect(result.finalRadius).toBeLessThanOrEqual(result.radius.at(-1)!);
      } finally {
        await crew.close();
      }
    }
  });

  it('through computeSelection (centred rows in k-d leaves that are skipped by their boxes) the picks are still plain greedy’s', async () => {
    const d = 24;
    const rows = randomRows(3000, d);
    const mean = new Float32Array(d);
    const centred = rows.slice();
    centreRows(centred, d, mean);
    const expected = naive(centred, d, 80);
    const out = await computeSelection({ strategy: 'diverse', vectors: rows, dimensions: d, mean, k: 80, threads: 2 }, () => {});
    expect(out.exact).toBe(true);
    expect(Array.from(out.picks)).toEqual(expected);
  });

  it('on a worker thread (as large pools run) it answers the same picks, with progress', async () => {
    const d = 24;
    const rows = randomRows(3000, d);
    const inline = await computeSelection({ strategy: 'diverse', vectors: rows.slice(), dimensions: d, mean: new Float32Array(d), k: 300, threads: 1 }, () => {});
    const shared = new Float32Array(new SharedArrayBuffer(rows.byteLength));
    shared.set(rows);
    const messages: string[] = [];
    const out = await computeSelectionOffThread({ strategy: 'diverse', vectors: shared, dimensions: d, mean: new Float32Array(d), k: 300, threads: 2 }, new AbortController().signal, (_, m) => messages.push(m));
    expect(Array.from(out.picks)).toEqual(Array.from(inline.picks));
    expect(messages).toContain('picked 256 of 300');
  });

  it('refuses k outside 1…n', async () => {
    const crew = new Crew(crewData(randomRows(10, 4), 4, 1));
    expect(() => farthestFirst(crew, 11, 0, () => {})).toThrow(RangeError);
    await crew.close();
  });
});

describe('selection sizes and shares', () => {
  it('allocateBySize is proportional, sums to k and never exceeds a cluster', () => {
    expect(Array.from(allocateBySize(Int32Array.from([6, 3, 1]), 5))).toEqual([3, 2, 0]);
    expect(Array.from(allocateBySize(Int32Array.from([1, 1, 1, 1]), 2))).toEqual([1, 1, 0, 0]);
    const sizes = Int32Array.from([50, 20, 20, 5, 3, 1, 1]);
    for (let k = 1; k <= 100; k++) {
      const quota = allocateBySize(sizes, k);
      expect(quota.reduce((a, b) => a + b, 0)).toBe(k);
      quota.forEach((q, l) => expect(q).toBeLessThanOrEqual(sizes[l]!));
    }
  });

  it('selectionSize takes exactly one of n and fraction', () => {
    expect(selectionSize({ n: 3 }, 10)).toBe(3);
    expect(selectionSize({ fraction: 0.25 }, 10)).toBe(3);
    expect(selectionSize({ fraction: 0.01 }, 10)).toBe(1);
    expect(() => selectionSize({ n: 11 }, 10)).toThrow('n is 11 but there are only 10 media to select from');
    expect(() => selectionSize({}, 10)).toThrow('Give exactly one of n and fraction');
  });

  it('the native traversal covers every item within its pair budget, an evenly spaced pool of at least k beyond it', () => {
    expect(poolSize(1_000_000, 1_000)).toBe(1_000_000);
    expect(poolSize(1_000_000, 10_000)).toBe(100_000);
    expect(poolSize(100_000, 10_000)).toBe(100_000);
    expect(poolSize(50_000, 40_000)).toBe(40_000);
  });
});
