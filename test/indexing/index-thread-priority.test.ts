import { describe, expect, it } from 'vitest';
import { computeIndexOffThread } from '../../src/modules/indexing/index-runner.js';
import { threadsOf } from '../support/proc.js';
import { waitFor } from '../support/server.js';

/** The nice value of each thread of this process, by thread id. */
function threadNices(): Map<number, number> {
  return new Map(threadsOf('self').map((t) => [t.tid, t.nice]));
}

function unitVectors(n: number, d: number): Float32Array {
  let s = 7;
  const out = Float32Array.from({ length: n * d }, () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5);
  for (let i = 0; i < n; i++) {
    const row = out.subarray(i * d, (i + 1) * d);
    const norm = Math.hypot(...row);
    row.forEach((v, x) => (row[x] = v / norm));
  }
  return out;
}

describe.runIf(process.platform === 'linux')('an index build off the event loop', () => {
  it('runs its thread at the nice value asked and leaves the threads of the API as they were', async () => {
    const before = threadNices();
    const niced: number[] = [];
    const n = 3000;
    await computeIndexOffThread(
      { vectors: unitVectors(n, 32), dimensions: 32, phashes: Array(n).fill(null), prior: null, threads: 2, indexPath: null },
      new AbortController().signal,
      () => niced.push([...threadNices()].filter(([tid, nice]) => nice === 9 && !before.has(tid)).length),
      9,
    );
    expect(niced.length).toBeGreaterThan(0);
    expect(Math.max(...niced)).toBeGreaterThanOrEqual(1);
    for (const [tid, nice] of threadNices()) if (before.has(tid)) expect(nice).toBe(before.get(tid));
  });
});

describe.runIf(process.platform === 'linux')('the index build thread', () => {
  const NICE = 11; // a value no other test's thread has, so the threads at it are this test's
  const input = () => ({ vectors: unitVectors(300, 32), dimensions: 32, phashes: Array(300).fill(null), prior: null, threads: 1, indexPath: null });
  const threadsAtNice = () => new Set([...threadNices()].filter(([, nice]) => nice === NICE).map(([tid]) => tid));

  it('is kept for the next build (its TypeScript loaded once), and ended when a build is aborted', { timeout: 120_000 }, async () => {
    const seen = (into: Set<number>) => () => threadsAtNice().forEach((tid) => into.add(tid));
    const first = new Set<number>();
    const output = await computeIndexOffThread(input(), new AbortController().signal, seen(first), NICE);
    expect(output.nearest.length).toBeGreaterThan(0);
    expect(first.size).toBeGreaterThan(0);
    // Idle between builds, at the same nice value (threads: 1, so no helper threads come and go beside it).
    const kept = threadsAtNice();
    expect(kept.size).toBeGreaterThan(0);
    expect([...kept].filter((tid) => !first.has(tid))).toEqual([]);

    const second = new Set<number>();
    await computeIndexOffThread(input(), new AbortController().signal, seen(second), NICE);
    expect([...second].filter((tid) => !kept.has(tid))).toEqual([]);

    const abort = new AbortController();
    const aborted = computeIndexOffThread(input(), abort.signal, () => abort.abort(new Error('stop')), NICE);
    await expect(aborted).rejects.toThrow('stop');
    await waitFor(async () => ([...kept].some((tid) => threadsAtNice().has(tid)) ? undefined : true), 10_000, 'the aborted thread ended');

    const third = new Set<number>();
    await computeIndexOffThread(input(), new AbortController().signal, seen(third), NICE);
    expect(third.size).toBeGreaterThan(0);
    expect([...third].filter((tid) => kept.has(tid))).toEqual([]);
  });
});
