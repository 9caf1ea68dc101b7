import { describe, expect, it } from 'vitest';
import { centre, computeIndex, emptyPhashHalves, setPhash } from '../../src/modules/indexing/compute-index.js';

/** n random unit vectors of d dimensions from a fixed seed. */
function vectors(n: number, d: number, seed = 1): Float32Array {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
  const out = Float32Array.from({ length: n * d }, rnd);
  for (let i = 0; i < n; i++) {
    const row = out.subarray(i * d, (i + 1) * d);
    const norm = Math.hypot(...row);
    row.forEach((v, x) => (row[x] = v / norm));
  }
  return out;
}

describe('computeIndex', () => {
  it('joins near-identical perceptual hashes at level 0 even when the vectors disagree', async () => {
    const output = await computeIndex({
      vectors: vectors(4, 32),
      dimensions: 32,
      phashes: ['00000000000000ff', 'ffffffff00000000', '0000000000000007', null],
      prior: null,
      threads: 1,
      indexPath: null,
    });
    const [l0] = output.levels;
    expect(l0![2]).toBe(l0![0]);
    expect(new Set([l0![0], l0![1], l0![3]]).size).toBe(3);
    expect(output.exact).toBe(true);
  });

  it('gives the same clusters from hashes split in halves as from hex strings, equal hashes joined to their first holder', async () => {
    const hashes = ['f0f0f0f0f0f0f0f0', null, '8000000000000001', 'f0f0f0f0f0f0f0f0', '0123456789abcdef', '8000000000000001', 'f0f0f0f0f0f0f0f0'];
    const halves = emptyPhashHalves(hashes.length);
    hashes.forEach((h, i) => setPhash(halves, i, h));
    const run = async (phashes: Parameters<typeof computeIndex>[0]['phashes']) =>
      (await computeIndex({ vectors: vectors(hashes.length, 24, 3), dimensions: 24, phashes, prior: null, threads: 1, indexPath: null })).levels.map((l) => Array.from(l));
    const fromStrings = await run(hashes);
    expect(await run(halves)).toEqual(fromStrings);
    expect([fromStrings[0]![3], fromStrings[0]![6]]).toEqual([fromStrings[0]![0], fromStrings[0]![0]]);
    expect(fromStrings[0]![5]).toBe(fromStrings[0]![2]);
    expect(fromStrings[0]![1]).not.toBe(fromStrings[0]![0]);
  });

  it('puts exact duplicate vectors together with uniqueness 0', async () => {
    const v = vectors(30, 16, 7);
    v.copyWithin(16, 0, 16); // item 1 = item 0
    const output = await computeIndex({ vectors: v, dimensions: 16, phashes: Array(30).fill(null), prior: null, threads: 1, indexPath: null });
    expect(output.levels[0]![1]).toBe(output.levels[0]![0]);
    expect(output.uniqueness[0]).toBeCloseTo(0, 5);
    expect(Math.max(...output.uniqueness)).toBeCloseTo(1, 5);
    expect(output.outliers.reduce((a, b) => a + b, 0)).toBe(1);
  });
});

describe('centre', () => {
  it('blends the prior into the mean by its weight and re-normalises', () => {
    const v = Float32Array.from([1, 0, 0, 1]);
    const mean = centre(v, 2, { mean: Float32Array.from([0, 0]), weight: 2 });
    expect(Array.from(mean)).toEqual([0.25, 0.25]);
    expect(Math.hypot(v[0]!, v[1]!)).toBeCloseTo(1, 6);
    expect(v[0]).toBeGreaterThan(0.9);
  });
});
