import { createRequire } from 'node:module';
import { quantizedVectors } from '../../src/adapters/vectors/knn-graph.js';
import { Rng } from '../../src/core/random.js';
import { computeSelection } from '../../src/modules/selection/compute-selection.js';
import { regenerate, seededIndex } from '../lib/scale-seed.js';
import type { CurationCase, CurationContext, CurationResult } from './case.js';

const require = createRequire(import.meta.url);
const usearch = require('usearch') as typeof import('usearch');

const D = 480;
/** Items the covering radius is measured over (all of them below this). */
const SAMPLE = 20_000;

/**
 * Diverse subsets (docs/curation.md): diverse at 1 % and at 10,000 picks, representative at 1 %, each timed through
 * HTTP as a SELECTION task; each subset's cover (over 20,000 sampled items, in the full centred space: the covering
 * radius, the largest cosine distance of an item to its nearest pick, and the mean one) against a random subset of the
 * same size. Then the approximations themselves on 10,000 of the seeded vectors: exact greedy (JavaScript, f32) against
 * the native one-byte traversal over every item and over a quarter of them, and random; cover over all 10,000.
 */
export const selectCase: CurationCase = {
  name: 'select',
  async run(ctx: CurationContext): Promise<CurationResult> {
    const rows: CurationResult['rows'] = [];
    const vectors = regenerate(ctx.n, D);
    const mean = meanOf(vectors, ctx.n);
    const q8 = quantizedVectors(vectors, D, mean, false);
    const sample = sampleRows(q8, ctx.n);
    const onePercent = Math.max(1, Math.round(ctx.n / 100));
    const runs = [
      { step: `diverse n=${onePercent} (1 %)`, body: { n: onePercent, strategy: 'diverse' } },
      { step: `diverse n=${Math.min(10_000, ctx.n)}`, body: { n: Math.min(10_000, ctx.n), strategy: 'diverse' } },
      { step: `representative n=${onePercent} (level 0)`, body: { n: onePercent, strategy: 'representative', threshold: 0 } },
    ];
    for (const [i, run] of runs.entries()) {
      const tag = `bench-select-${i}`;
      const started = performance.now();
      const { task_id: taskId } = await ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/select`, { ...run.body, tag }, 202);
      await ctx.waitTask(taskId);
      const seconds = (performance.now() - started) / 1000;
      const picks = await taggedItems(ctx, tag);
      const random = randomItems(ctx.n, picks.length, 7 + i);
      rows.push({ step: run.step, seconds, found: `${picks.length} picked; ${cover(q8, picks, sample)} vs random ${cover(q8, random, sample)}` });
    }
    rows.push(...(await approximation(vectors, mean)));
    return { rows };
  },
};

/** Exact greedy against the native one-byte traversal, over every item and over a pool of a quarter (and random), on the first 10,000 seeded vectors, 1,000 picks. */
export async function approximation(vectors: Float32Array, mean: Float32Array): Promise<CurationResult['rows']> {
  const n = Math.min(10_000, vectors.length / D);
  const k = Math.max(1, Math.round(n / 10));
  const part = vectors.subarray(0, n * D);
  const q8 = quantizedVectors(part, D, mean, false);
  const everyItem = q8;
  const rows: CurationResult['rows'] = [];
  for (const [label, budget, poolPairs] of [
    ['exact (f32, JavaScript)', Number.POSITIVE_INFINITY, undefined],
    ['native one-byte, every item', 0, undefined],
    ['native one-byte, pool of 1/4', 0, (n * k) / 4],
  ] as const) {
    const shared = new Float32Array(new SharedArrayBuffer(n * D * 4));
    shared.set(part);
    const started = performance.now();
    const out = await computeSelection({ strategy: 'diverse', vectors: shared, dimensions: D, mean, k, threads: 2, budget, poolPairs }, () => {});
    rows.push({ step: `${n} items, k=${k}: ${label}`, seconds: (performance.now() - started) / 1000, found: cover(q8, Array.from(out.picks), everyItem) });
  }
  rows.push({ step: `${n} items, k=${k}: random`, seconds: 0, found: cover(q8, randomItems(n, k, 3), everyItem) });
  return rows;
}

function meanOf(vectors: Float32Array, n: number): Float32Array {
  const sum = new Float64Array(D);
  for (let i = 0; i < n; i++) for (let x = 0; x < D; x++) sum[x] = sum[x]! + vectors[i * D + x]!;
  return Float32Array.from(sum, (s) => s / n);
}

/** Evenly spaced rows (all when few), as their own buffer (usearch reads from the buffer's start). */
function sampleRows(q8: Int8Array, n: number): Int8Array {
  const step = Math.max(1, Math.floor(n / SAMPLE));
  const picked: number[] = [];
  for (let i = 0; i < n; i += step) picked.push(i);
  return gather(q8, picked);
}

function gather(q8: Int8Array, items: number[]): Int8Array {
  const out = new Int8Array(items.length * D);
  items.forEach((item, r) => out.set(q8.subarray(item * D, item * D + D), r * D));
  return out;
}

/** The largest and the mean cosine distance of a sampled item to its nearest pick (natively, one byte per dimension). */
function cover(q8: Int8Array, picks: number[], sample: Int8Array): string {
  const found = usearch.exactSearch(gather(q8, picks), sample, D, 1, 'cos' as never, 2) as unknown as { distances: Float32Array };
  let max = 0;
  let sum = 0;
  for (const d of found.distances) {
    if (d > max) max = d;
    sum += d;
  }
  return `radius ${max.toFixed(3)} mean ${(sum / found.distances.length).toFixed(3)}`;
}

function randomItems(n: number, k: number, seed: number): number[] {
  const rng = new Rng(seed);
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(rng.int(n));
  return [...chosen];
}

/** The seeded items carrying `tag`, read back through Explore (100 clusters a page). */
async function taggedItems(ctx: CurationContext, tag: string): Promise<number[]> {
  const items: number[] = [];
  for (let page = 0; ; page++) {
    const body = await ctx.send('GET', `/api/v1/explore/${ctx.datasetId}?tags=${tag}&previews_limit=1000&page_number=${page}`);
    const clusters = body.clusters as Array<{ previews: Array<{ file_name: string }> }>;
    for (const c of clusters) for (const p of c.previews) items.push(seededIndex(p.file_name));
    if (clusters.length < 100) return items.filter((i) => i >= 0);
  }
}
