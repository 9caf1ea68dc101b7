import { describe, expect, it } from 'vitest';
import { resizableFloats } from '../../src/adapters/vectors/vector-bytes.js';
import { centreRows, computeIndex, emptyPhashHalves, meanOf, setPhash } from '../../src/modules/indexing/compute-index.js';

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

/** A copy of `v` in a resizable buffer, as loadVectors reads a version's vectors, at `extra` rows more than it holds. */
function resizableCopy(v: Float32Array, d: number, extra = 0): Float32Array {
  const copy = resizableFloats(v.length + extra * d).subarray(0, v.length);
  copy.set(v);
  return copy;
}

describe('computeIndex on vectors in a resizable buffer', () => {
  /** Unit vectors with a large shared component, as the backbone's features have, so centring matters. */
  const offset = (n: number, d: number, seed: number) => {
    const v = vectors(n, d, seed);
    for (let i = 0; i < v.length; i++) v[i] = v[i]! + 0.5;
    return v;
  };
  const index = (v: Float32Array, d: number) =>
    computeIndex({ vectors: v, dimensions: d, phashes: Array(v.length / d).fill(null), prior: null, threads: 1, indexPath: null, releaseVectors: true, mapSample: 50 });

  it('gives back the buffer as the bytes are made, with the same graph, clusters and scores as a plain array', async () => {
    const d = 24;
    const v = offset(4500, d, 5);
    const resizable = resizableCopy(v, d, 7);
    const buffer = resizable.buffer as ArrayBuffer & { resizable: boolean };
    expect(buffer.resizable).toBe(true);
    const [plain, shrunk] = [await index(new Float32Array(v), d), await index(resizable, d)];
    expect(plain.exact).toBe(false);
    expect(buffer.byteLength).toBe(0);
    expect(shrunk.levels.map((l) => Array.from(l))).toEqual(plain.levels.map((l) => Array.from(l)));
    expect(Array.from(shrunk.uniqueness)).toEqual(Array.from(plain.uniqueness));
    expect(Array.from(shrunk.mean)).toEqual(Array.from(plain.mean));
  });

  it('gives the exact graph of a small version the same clusters and scores as a plain array', async () => {
    const d = 16;
    const v = offset(40, d, 9);
    const [plain, fromResizable] = [await index(new Float32Array(v), d), await index(resizableCopy(v, d, 3), d)];
    expect(plain.exact).toBe(true);
    expect(fromResizable.levels.map((l) => Array.from(l))).toEqual(plain.levels.map((l) => Array.from(l)));
    expect(Array.from(fromResizable.uniqueness)).toEqual(Array.from(plain.uniqueness));
  });
});

describe('meanOf and centreRows', () => {
  it('blends the prior into the mean by its weight and re-normalises', () => {
    const v = Float32Array.from([1, 0, 0, 1]);
    const mean = meanOf(v, 2, { mean: Float32Array.from([0, 0]), weight: 2 });
    centreRows(v, 2, mean);
    expect(Array.from(mean)).toEqual([0.25, 0.25]);
    expect(Math.hypot(v[0]!, v[1]!)).toBeCloseTo(1, 6);
    expect(v[0]).toBeGreaterThan(0.9);
  });
});
