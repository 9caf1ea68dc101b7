import { describe, expect, it } from 'vitest';
import { generate } from '../../bench/lib/synthetic-vectors.js';
import { exactGraph } from '../../src/adapters/vectors/usearch-index.js';
import { computeMap } from '../../src/modules/indexing/embedding-map.js';

const D = 32;
const N = 1500;

function mapOf(n: number, sample: number) {
  const s = generate(n, D, 5);
  const graph = exactGraph(s.vectors, D, 10, 1);
  const read = (i: number, out: Float32Array) => out.set(s.vectors.subarray(i * D, (i + 1) * D));
  return { s, map: computeMap(n, D, read, graph, 1, sample) };
}

describe('embedding map layout', () => {
  it('places every item from a sample, the same way each time, duplicates far closer than random pairs', () => {
    const { s, map } = mapOf(N, 200);
    expect(map.sample).toBe(200);
    const again = mapOf(N, 200).map;
    expect(again.x).toEqual(map.x);
    expect(again.y).toEqual(map.y);
    expect([...map.x, ...map.y].filter((v) => !(v >= 0 && v <= 1))).toEqual([]);
    expect(Math.max(map.bounds.max_x, map.bounds.max_y)).toBeCloseTo(1, 5);
    let twins = 0;
    let random = 0;
    let stacked = 0;
    const pairs = s.duplicates.length / 2;
    for (let p = 0; p < pairs; p++) {
      const [a, b] = [s.duplicates[2 * p]!, s.duplicates[2 * p + 1]!];
      const r = (a * 7919 + 13) % N;
      twins += Math.hypot(map.x[a]! - map.x[b]!, map.y[a]! - map.y[b]!);
      random += Math.hypot(map.x[a]! - map.x[r]!, map.y[a]! - map.y[r]!);
      if (map.x[a] === map.x[b] && map.y[a] === map.y[b]) stacked++;
    }
    expect(pairs).toBeGreaterThan(20);
    expect(twins / pairs).toBeLessThan((random / pairs) / 10);
    expect(stacked).toBe(0);
  });

  it('lays out tiny sets without failing', () => {
    for (const n of [0, 1, 2, 3, 5]) {
      const { map } = mapOf(n, 400);
      expect(map.x).toHaveLength(n);
      for (let i = 0; i < n; i++) expect(Number.isFinite(map.x[i]!) && Number.isFinite(map.y[i]!)).toBe(true);
    }
  });
});
