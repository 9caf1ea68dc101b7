import { describe, expect, it } from 'vitest';
import { buildKnnGraph, quantizedVectors } from '../../src/adapters/vectors/knn-graph.js';
import { VectorIndex, exactGraph } from '../../src/adapters/vectors/usearch-index.js';
import type { NeighbourGraph } from '../../src/core/clustering.js';
import { Rng } from '../../src/core/random.js';

/** n unit vectors in clusters of ~20 around random centres (noise of norm 0.6), as embeddings of similar photos look. */
function clustered(n: number, d: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  const centres = Array.from({ length: Math.ceil(n / 20) }, () => Array.from({ length: d }, () => rng.gaussian() / Math.sqrt(d)));
  const v = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const c = centres[rng.int(centres.length)]!;
    let norm = 0;
    for (let x = 0; x < d; x++) {
      v[i * d + x] = c[x]! + (0.6 * rng.gaussian()) / Math.sqrt(d);
      norm += v[i * d + x]! ** 2;
    }
    for (let x = 0; x < d; x++) v[i * d + x] = v[i * d + x]! / Math.sqrt(norm);
  }
  return v;
}

function recall(approx: NeighbourGraph, exact: NeighbourGraph): number {
  let hits = 0;
  for (let i = 0; i < exact.n; i++) {
    const truth = new Set(exact.neighbours.subarray(i * exact.k, (i + 1) * exact.k));
    for (let j = 0; j < approx.k; j++) if (truth.has(approx.neighbours[i * approx.k + j]!)) hits++;
  }
  return hits / (exact.n * exact.k);
}

describe('buildKnnGraph', () => {
  it('finds nearly every exact neighbour of clustered vectors, with their similarities (within 0.002), best first', async () => {
    const d = 48;
    const v = clustered(6000, d, 11);
    const exact = exactGraph(v, d, 10, 2);
    const progress: string[] = [];
    const built = await buildKnnGraph(quantizedVectors(v, d, new Float32Array(d), false), d, 10, 1, (_, message) => progress.push(message));
    expect(recall(built.graph, exact)).toBeGreaterThan(0.97);
    for (const i of [0, 1234, 5999]) {
      for (let j = 0; j < 10; j++) {
        const o = built.graph.neighbours[i * 10 + j]!;
        let dot = 0;
        for (let x = 0; x < d; x++) dot += v[i * d + x]! * v[o * d + x]!;
        expect(o).not.toBe(i);
        expect(Math.abs(built.graph.similarities[i * 10 + j]! - dot)).toBeLessThan(0.002);
        if (j > 0) expect(built.graph.similarities[i * 10 + j]!).toBeLessThanOrEqual(built.graph.similarities[i * 10 + j - 1]!);
      }
    }
    expect(built.rounds.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe('neighbour graph: similarities');
  });

  it('gives the same quality on worker threads sharing the vectors as on one thread', async () => {
    const d = 32;
    const v = clustered(5000, d, 5);
    const exact = exactGraph(v, d, 10, 2);
    const parallel = await buildKnnGraph(quantizedVectors(v, d, new Float32Array(d), true), d, 10, 2, undefined, 1000);
    expect(recall(parallel.graph, exact)).toBeGreaterThan(0.97);
    expect(parallel.graph.neighbours.buffer).toBeInstanceOf(ArrayBuffer);
  });

  it('refuses to share vectors between threads that are not in shared memory', async () => {
    const v = clustered(2000, 16, 1);
    await expect(buildKnnGraph(quantizedVectors(v, 16, new Float32Array(16), false), 16, 10, 2, undefined, 1000)).rejects.toThrow('shared memory');
  });
});

describe('VectorIndex.searchMany', () => {
  it('answers each query as search() does, one query or many, and nothing for an empty index', () => {
    const d = 32;
    const vectors = clustered(600, d, 11);
    const index = VectorIndex.build(vectors, d, 1);
    const queries = Array.from({ length: 40 }, (_, q) => vectors.slice(q * 15 * d, (q * 15 + 1) * d));
    const many = index.searchMany(queries, 10);
    expect(many).toHaveLength(40);
    for (const [q, query] of queries.entries()) {
      const one = index.search(query, 10);
      expect(Array.from(many[q]!.ordinals)).toEqual(Array.from(one.ordinals));
      expect(many[q]!.ordinals[0]).toBe(q * 15);
      for (const [j, distance] of one.distances.entries()) expect(many[q]!.distances[j]).toBeCloseTo(distance, 5);
    }
    expect(Array.from(index.searchMany(queries.slice(3, 4), 10)[0]!.ordinals)).toEqual(Array.from(index.search(queries[3]!, 10).ordinals));
    const empty = VectorIndex.build(new Float32Array(0), d, 1);
    expect(empty.searchMany(queries.slice(0, 2), 10)).toEqual([
      { ordinals: new Int32Array(0), distances: new Float32Array(0) },
      { ordinals: new Int32Array(0), distances: new Float32Array(0) },
    ]);
  });
});
