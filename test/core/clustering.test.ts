import { describe, expect, it } from 'vitest';
import { type ClusterLevelRule, type NeighbourGraph, clusterLevels, clusterSizes, nearestSimilarity, outlierFlags, uniquenessScores } from '../../src/core/clustering.js';

/** A graph from explicit undirected edges [i, j, similarity]; rows padded with -1. */
function graphOf(n: number, edges: Array<[number, number, number]>, k = 4): NeighbourGraph {
  const rows: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  for (const [a, b, s] of edges) {
    rows[a]!.push([b, s]);
    rows[b]!.push([a, s]);
  }
  const neighbours = new Int32Array(n * k).fill(-1);
  const similarities = new Float32Array(n * k);
  rows.forEach((row, i) => {
    row.sort((x, y) => y[1] - x[1]);
    row.slice(0, k).forEach(([j, s], slot) => {
      neighbours[i * k + slot] = j;
      similarities[i * k + slot] = s;
    });
  });
  return { n, k, neighbours, similarities };
}

const rules = (...min: number[]): ClusterLevelRule[] => min.map((minSimilarity) => ({ minSimilarity, capFraction: 1, minCap: 1000 }));

describe('clusterLevels', () => {
  it('joins edges above each level and nests coarser levels over finer ones', () => {
    const g = graphOf(6, [[0, 1, 0.95], [1, 2, 0.7], [3, 4, 0.9], [2, 3, 0.4], [5, 0, 0.1]]);
    const levels = clusterLevels(g, rules(0.8, 0.6, 0.3, 0.2, 0.05));
    expect(Array.from(levels[0]!)).toEqual([0, 0, 2, 3, 3, 5]);
    expect(Array.from(levels[1]!)).toEqual([0, 0, 0, 3, 3, 5]);
    expect(Array.from(levels[2]!)).toEqual([0, 0, 0, 0, 0, 5]);
    expect(Array.from(levels[4]!)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('labels a cluster by its smallest member whatever the merge order', () => {
    const g = graphOf(4, [[3, 2, 0.99], [2, 1, 0.98], [1, 0, 0.97]]);
    expect(Array.from(clusterLevels(g, rules(0.9, 0.9, 0.9, 0.9, 0.9))[0]!)).toEqual([0, 0, 0, 0]);
  });

  it('refuses merges past the size cap, so a chain does not become one giant cluster', () => {
    const chain = Array.from({ length: 99 }, (_, i) => [i, i + 1, 0.99 - i * 0.001] as [number, number, number]);
    const capped: ClusterLevelRule[] = Array(5).fill({ minSimilarity: 0.5, capFraction: 0, minCap: 10 });
    const sizes = clusterSizes(clusterLevels(graphOf(100, chain), capped)[0]!);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('joins extra pairs (perceptual-hash matches) at level 0 regardless of similarity', () => {
    const g = graphOf(3, [[0, 1, 0.1]]);
    const levels = clusterLevels(g, rules(0.9, 0.9, 0.9, 0.9, 0.9), Int32Array.from([0, 2]));
    expect(Array.from(levels[0]!)).toEqual([0, 1, 0]);
    expect(Array.from(levels[4]!)).toEqual([0, 1, 0]);
  });
});

describe('scores', () => {
  it('uniqueness is 0 for exact duplicates, 1 for the most isolated, scaled between', () => {
    const g = graphOf(4, [[0, 1, 1], [2, 0, 0.5], [3, 2, 0.8]]);
    const nearest = nearestSimilarity(g);
    expect(Array.from(nearest)).toEqual([1, 1, 0.8, 0.8].map(Math.fround));
    const u = uniquenessScores(nearest);
    expect(u[0]).toBe(0);
    expect(u[2]).toBeCloseTo(1);
    expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
  });

  it('a lone item (no neighbour) is fully unique', () => {
    expect(Array.from(uniquenessScores(nearestSimilarity(graphOf(1, []))))).toEqual([1]);
  });

  it('flags the weakest 5 % as outliers, none below 20 items', () => {
    const nearest = Float32Array.from({ length: 40 }, (_, i) => i / 40);
    expect(Array.from(outlierFlags(nearest)).reduce((a, b) => a + b, 0)).toBe(2);
    expect(outlierFlags(nearest)[0]).toBe(1);
    expect(Array.from(outlierFlags(nearest.subarray(0, 19))).every((f) => f === 0)).toBe(true);
  });
});
