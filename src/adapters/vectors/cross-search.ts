import { Worker } from 'node:worker_threads';
import type { NeighbourGraph } from '../../core/clustering.js';
import { emptyLists } from '../../core/knn-lists.js';
import { type CrossContext, EXACT_CROSS_LIMIT, exactComparisons, searchAll } from './cross-forest.js';
import type { CrossWorkerReply, CrossWorkerRequest } from './cross-worker-serve.js';

export type CrossProgress = (fraction: number, message: string) => void;

/** Up to this many comparisons the exact search runs on the caller's thread: at most ~0.1 s, less than starting a worker. */
const IN_PLACE_LIMIT = 1_000_000;

/** How often the trees' shared counter is read for progress. */
const PROGRESS_MS = 1000;

/**
 * Each item's best matches across (CrossContext) on worker threads, so the native searches never hold the event loop
 * (tiny sides excepted: IN_PLACE_LIMIT): exactly on one worker (its search on `threads` native threads) when the sides
 * are small enough (EXACT_CROSS_LIMIT), else trees shared out to `threads` workers, each filling its own lists, merged
 * at the end.
 * `ctx.q8` and `ctx.codes` must live in shared memory. Aborting terminates the workers.
 */
export async function findAcross(
  ctx: CrossContext,
  threads: number,
  signal: AbortSignal,
  onProgress: CrossProgress = () => {},
  exactLimit = EXACT_CROSS_LIMIT,
): Promise<{ lists: NeighbourGraph; exact: boolean }> {
  signal.throwIfAborted();
  const comparisons = exactComparisons(ctx.codes, ctx.sides, ctx.compared);
  if (comparisons <= Math.min(IN_PLACE_LIMIT, exactLimit)) {
    const lists = emptyLists(ctx.n, ctx.params.width);
    searchAll(ctx, lists, 1);
    return { lists, exact: true };
  }
  const exact = comparisons <= exactLimit;
  const crewSize = exact ? 1 : Math.max(1, Math.min(threads, ctx.params.trees));
  const lists = Array.from({ length: crewSize }, () => emptyLists(ctx.n, ctx.params.width, true));
  const crew = Array.from({ length: crewSize }, () => new Worker(new URL('./cross-worker.mjs', import.meta.url), { execArgv: [] }));
  const ask = (worker: Worker, request: CrossWorkerRequest) =>
    new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      };
      const onMessage = (reply: CrossWorkerReply) => {
        cleanup();
        if (reply.ok) resolve();
        else reject(new Error(`leakage search failed: ${reply.message}`));
      };
      const onError = (err: Error) => {
        cleanup();
        reject(err);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`leakage search worker exited with code ${code}`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  try {
    if (exact) {
      onProgress(0, 'comparing every pair across the sides');
      await ask(crew[0]!, { op: 'exact', ctx, lists: lists[0]!, threads });
    } else {
      const cells = new Int32Array(new SharedArrayBuffer(8));
      const timer = setInterval(() => onProgress(Atomics.load(cells, 1) / ctx.params.trees, `${Atomics.load(cells, 1)} of ${ctx.params.trees} trees searched`), PROGRESS_MS);
      try {
        await Promise.all(crew.map((worker, w) => ask(worker, { op: 'trees', ctx, lists: lists[w]!, cells })));
      } finally {
        clearInterval(timer);
      }
      if (crewSize > 1) await ask(crew[0]!, { op: 'merge', target: lists[0]!, sources: lists.slice(1) });
    }
    return { lists: lists[0]!, exact };
  } finally {
    for (const worker of crew) void worker.terminate();
  }
}
