import { runOnThread } from '../../adapters/workers/compute-thread.js';
import type { IndexInput, IndexOutput, IndexProgress } from './compute-index.js';

/**
 * Runs computeIndex on a worker thread: building the graph of a large version takes minutes of native
 * calls that would otherwise stall the API on the same process. Aborting terminates the thread. The thread and those it
 * starts run at nice `nice` (BACKGROUND_NICE).
 */
export function computeIndexOffThread(input: IndexInput, signal: AbortSignal, onProgress: IndexProgress = () => {}, nice = 0): Promise<IndexOutput> {
  const what = { failed: 'indexing', worker: 'index worker' };
  return runOnThread<IndexOutput>(new URL('./index-worker.mjs', import.meta.url), input, what, signal, {
    onProgress,
    transferList: [input.vectors.buffer as ArrayBuffer],
    nice,
    inputBytes: input.vectors.byteLength,
  });
}
