import { describe, expect, it } from 'vitest';
import type { NeighbourGraph } from '../../src/core/clustering.js';
import { refineGraph, truncateGraph } from '../../src/core/graph-refinement.js';

/** Unit vectors on a circle: item i at angle i * step, so its nearest items are its index neighbours. */
function circle(n: number, step: number): Float32Array {
  const v = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    v[i * 2] = Math.cos(i * step);
    v[i * 2 + 1] = Math.sin(i * step);
  }
  return v;
}

function graphOf(n: number, k: number, lists: number[][]): NeighbourGraph {
  const neighbours = new Int32Array(n * k).fill(-1);
  lists.forEach((list, i) => list.forEach((o, j) => (neighbours[i * k + j] = o)));
  return { n, k, neighbours, similarities: new Float32Array(n * k) };
}

const row = (g: NeighbourGraph, i: number) => Array.from(g.neighbours.subarray(i * g.k, (i + 1) * g.k));

describe('refineGraph', () => {
  it('finds the true neighbours through neighbours of neighbours and reverse neighbours', () => {
    // 8 items along an arc; each starts knowing only one true neighbour, item 7 nobody (others list it).
    const v = circle(8, 0.1);
    const g = graphOf(8, 2, [[1], [2], [3], [4], [5], [6], [7], []]);
    refineGraph(g, v, 2, { maxRounds: 10, minChangeFraction: 0 });
    expect(row(g, 0)).toEqual([1, 2]);
    expect(row(g, 3)[0] === 2 || row(g, 3)[0] === 4).toBe(true);
    expect(new Set(row(g, 3))).toEqual(new Set([2, 4]));
    expect(new Set(row(g, 7))).toEqual(new Set([6, 5]));
    expect(g.similarities[7 * 2]).toBeCloseTo(Math.cos(0.1), 6);
    expect(g.similarities[7 * 2 + 1]).toBeCloseTo(Math.cos(0.2), 6);
  });

  it('recomputes similarities exactly, drops self-loops and keeps lists sorted best first', () => {
    const v = circle(4, 0.5);
    const g = graphOf(4, 3, [[3, 0, 1], [0, 2, 3], [1, 3, 0], [2, 1, 0]]);
    g.similarities.fill(0.123);
    const rounds = refineGraph(g, v, 2, { maxRounds: 3, minChangeFraction: 0 });
    expect(row(g, 0)).toEqual([1, 2, 3]);
    expect(Array.from(g.similarities.subarray(0, 3)).map((s) => Number(s.toFixed(5)))).toEqual([Math.cos(0.5), Math.cos(1), Math.cos(1.5)].map((s) => Number(s.toFixed(5))));
    expect(rounds.length).toBeGreaterThan(0);
  });

  it('stops once a round changes nothing', () => {
    const v = circle(5, 0.2);
    const g = graphOf(5, 2, [[1, 2], [0, 2], [1, 3], [2, 4], [3, 2]]);
    expect(refineGraph(g, v, 2, { maxRounds: 5, minChangeFraction: 0.001 })).toEqual([0]);
  });
});

describe('truncateGraph', () => {
  it('keeps the first k of each list', () => {
    const g = graphOf(2, 3, [[1, -1, -1], [0, -1, -1]]);
    g.similarities.set([0.9, 0, 0, 0.8, 0, 0]);
    const t = truncateGraph(g, 1);
    expect(t.k).toBe(1);
    expect(Array.from(t.neighbours)).toEqual([1, 0]);
    expect(Array.from(t.similarities).map((s) => Number(s.toFixed(2)))).toEqual([0.9, 0.8]);
  });
});
