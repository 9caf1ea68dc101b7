import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { quantizeRows } from '../../src/adapters/vectors/forest-graph.js';
import { readGraphFile, writeGraphFile } from '../../src/adapters/vectors/graph-file.js';
import { VectorIndex, exactGraph } from '../../src/adapters/vectors/usearch-index.js';
import { analyseLabels, analyseObjects } from '../../src/modules/label-errors/label-analysis.js';
import type { LabelledVectors } from '../../src/modules/label-errors/label-errors.repo.js';

const D = 16;
const N = 2400; // above EXACT_NEIGHBOURS_UP_TO: the approximate path

/** N unit vectors around 12 well-apart centres, class = centre mod 4, one in 50 flipped to the next class. */
function planted(): { vectors: Float32Array; items: LabelledVectors; flipped: Set<number> } {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: D }, random));
  const vectors = new Float32Array(N * D);
  const classOf = new Int32Array(N);
  const flipped = new Set<number>();
  for (let i = 0; i < N; i++) {
    const c = i % 12;
    let norm = 0;
    for (let x = 0; x < D; x++) {
      vectors[i * D + x] = centres[c]![x]! + 0.15 * random();
      norm += vectors[i * D + x]! ** 2;
    }
    for (let x = 0; x < D; x++) vectors[i * D + x] = vectors[i * D + x]! / Math.sqrt(norm);
    classOf[i] = c % 4;
    if (i % 50 === 49) {
      classOf[i] = (classOf[i]! + 1) % 4;
      flipped.add(i);
    }
  }
  const q8 = new Int8Array(N * D);
  quantizeRows(vectors, D, q8);
  const items = { mediaIds: Array.from({ length: N }, (_, i) => `m${i}`), classOf, labels: ['a', 'b', 'c', 'd'], ordinals: Int32Array.from({ length: N }, (_, i) => i), q8 };
  return { vectors, items, flipped };
}

const options = { k: 10, threshold: 0.7, threads: 1, signal: new AbortController().signal, onProgress: async () => {} };

describe('label analysis on the stored k-NN graph', () => {
  it('reads neighbours from the graph file and flags exactly the planted flips, as the index search does', async () => {
    const { vectors, items, flipped } = planted();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-graph-'));
    try {
      const file = path.join(dir, 'graph.bin');
      await writeGraphFile(file, exactGraph(vectors, D, 10, 1));
      const graph = await readGraphFile(file);
      expect([graph.n, graph.k]).toEqual([N, 10]);

      const fromGraph = await analyseLabels(items, D, null, graph, options);
      expect(fromGraph.fromGraph).toBe(N);
      const flagged = new Set([...fromGraph.mislabel.keys()].filter((i) => fromGraph.mislabel[i] === 1));
      expect(flagged).toEqual(flipped);
      for (const i of flipped) expect(fromGraph.suggested[i]).toBe((items.classOf[i]! + 3) % 4);

      const searched = await analyseLabels(items, D, VectorIndex.build(vectors, D, 1), null, options);
      expect(searched.fromGraph).toBe(0);
      expect(Array.from(searched.mislabel)).toEqual(Array.from(fromGraph.mislabel));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('searches the index for items whose graph lists hold too few labelled neighbours, and for items past the graph', async () => {
    const { vectors, items, flipped } = planted();
    // The graph of the first 2300 items (the rest attached later); items 0..99 lose their lists (as if unlabelled
    // neighbours filled them).
    const partial = exactGraph(vectors.slice(0, 2300 * D), D, 10, 1);
    partial.neighbours.fill(-1, 0, 100 * 10);
    const analysis = await analyseLabels(items, D, VectorIndex.build(vectors, D, 1), partial, options);
    expect(analysis.fromGraph).toBe(N - 100 - 100);
    const flagged = new Set([...analysis.mislabel.keys()].filter((i) => analysis.mislabel[i] === 1));
    expect(flagged).toEqual(flipped);
    expect(Number.isNaN(analysis.score[5]!)).toBe(false);
    expect(Number.isNaN(analysis.score[2350]!)).toBe(false);
  });

  it('objects: the detection’s stored graph for its own, a brute-force search for another detection’s, the same flags as exactly', async () => {
    const { vectors, items, flipped } = planted();
    // The first 2300 objects are one detection's (its graph), the last 100 another's without a graph.
    const ordinals = Int32Array.from({ length: N }, (_, i) => (i < 2300 ? i : -1));
    const objects = { ...items, ordinals };
    const stored = exactGraph(vectors.slice(0, 2300 * D), D, 10, 1);
    const analysis = await analyseObjects(objects, D, stored, options);
    expect(analysis.fromGraph).toBe(2300);
    const flagged = new Set([...analysis.mislabel.keys()].filter((i) => analysis.mislabel[i] === 1));
    expect(flagged).toEqual(flipped);
    expect([...flipped].filter((i) => i >= 2300).length).toBe(2);
    for (const i of flipped) expect(analysis.suggested[i]).toBe((items.classOf[i]! + 3) % 4);

    // Without a stored graph the run builds one: the same flags.
    const built = await analyseObjects(objects, D, null, options);
    expect(built.fromGraph).toBe(N);
    expect(Array.from(built.mislabel)).toEqual(Array.from(analysis.mislabel));
  });

  it('refuses a file that is not a graph', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-graph-'));
    try {
      const file = path.join(dir, 'graph.bin');
      await writeGraphFile(file, { n: 2, k: 1, neighbours: Int32Array.from([1, 0]) });
      await expect(readGraphFile(path.join(dir, 'missing.bin'))).rejects.toThrow();
      const { writeFile } = await import('node:fs/promises');
      await writeFile(file, Buffer.from('not a graph at all'));
      await expect(readGraphFile(file)).rejects.toThrow(/not a neighbour graph/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
