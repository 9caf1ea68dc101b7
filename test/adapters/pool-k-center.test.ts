import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/random.js';
import { computeSelection } from '../../src/modules/selection/compute-selection.js';
import { computeSelectionOffThread } from '../../src/modules/selection/selection-runner.js';

const D = 64;
const CLUSTERS = 40;
const PER_CLUSTER = 300;

/** Planted clusters: unit random centres (nearly orthogonal in 64 dims) and items within cosine ~0.99 of theirs, interleaved. */
function planted(): { rows: Float32Array; clusterOf: Int32Array } {
  const rng = new Rng(29);
  const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: D }, () => rng.gaussian()));
  const n = CLUSTERS * PER_CLUSTER;
  const rows = new Float32Array(new SharedArrayBuffer(n * D * 4));
  const clusterOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = i % CLUSTERS;
    clusterOf[i] = c;
    const centre = centres[c]!;
    const norm = Math.hypot(...centre);
    for (let x = 0; x < D; x++) rows[i * D + x] = centre[x]! / norm + (0.1 / Math.sqrt(D)) * rng.gaussian();
  }
  return { rows, clusterOf };
}

/** The largest cosine distance of an item to its nearest pick (rows are unit length after computeSelection centres them). */
function coveringRadius(rows: Float32Array, picks: ArrayLike<number>): number {
  const n = rows.length / D;
  let radius = 0;
  for (let i = 0; i < n; i++) {
    let best = Number.POSITIVE_INFINITY;
    for (let p = 0; p < picks.length; p++) {
      let dot = 0;
      for (let x = 0; x < D; x++) dot += rows[i * D + x]! * rows[picks[p]! * D + x]!;
      best = Math.min(best, 1 - dot);
    }
    radius = Math.max(radius, best);
  }
  return radius;
}

function copy(rows: Float32Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(rows.byteLength));
  out.set(rows);
  return out;
}

describe('diverse selection beyond the exact budget (native one-byte traversal, full space)', () => {
  const { rows, clusterOf } = planted();
  const mean = new Float32Array(D);

  it('over every item: one pick per planted cluster, a covering radius far below random picks’', async () => {
    const vectors = copy(rows);
    const out = await computeSelection({ strategy: 'diverse', vectors, dimensions: D, mean, k: CLUSTERS, threads: 1, budget: 0 }, () => {});
    expect({ exact: out.exact, pool: out.pool, dims: out.dims }).toEqual({ exact: true, pool: CLUSTERS * PER_CLUSTER, dims: D });
    expect(new Set(Array.from(out.picks, (i) => clusterOf[i])).size).toBe(CLUSTERS);
    const rng = new Rng(7);
    const random = new Set<number>();
    while (random.size < CLUSTERS) random.add(rng.int(clusterOf.length));
    const ours = coveringRadius(vectors, out.picks);
    const theirs = coveringRadius(vectors, [...random]);
    // Within a cluster items are ~0.01 apart (cosine distance), clusters ~1 apart: a missed cluster shows.
    expect(ours).toBeLessThan(0.05);
    expect(theirs).toBeGreaterThan(0.5);
    expect(out.radius).toBeCloseTo(ours, 2);
  });

  it('over a pool drawn from equal runs (pair budget lowered; the clusters interleave with period 40) every cluster still gets a pick, the same on a worker thread', async () => {
    const input = { strategy: 'diverse' as const, dimensions: D, mean, k: CLUSTERS, threads: 2, budget: 0, poolPairs: CLUSTERS * 1000 };
    const out = await computeSelection({ ...input, vectors: copy(rows) }, () => {});
    expect({ exact: out.exact, pool: out.pool }).toEqual({ exact: false, pool: 1000 });
    expect(new Set(Array.from(out.picks, (i) => clusterOf[i])).size).toBe(CLUSTERS);
    const messages: string[] = [];
    const off = await computeSelectionOffThread({ ...input, vectors: copy(rows) }, new AbortController().signal, (_, m) => messages.push(m));
    expect(Array.from(off.picks)).toEqual(Array.from(out.picks));
    expect(messages).toContain('one byte per dimension: a pool of 1000 of 12000 rows');
  });
});
