import { runOnThread } from '../../adapters/workers/compute-thread.js';
import type { SelectionInput, SelectionOutput } from './compute-selection.js';

/**
 * Runs computeSelection on a worker thread (its own helpers beside it): a traversal of a million items takes
 * minutes of tight loops that would otherwise stall the process's event loop. Aborting terminates the thread. The thread
 * and its helpers run at nice `nice` (BACKGROUND_NICE).
 */
export function computeSelectionOffThread(input: SelectionInput, signal: AbortSignal, onProgress: (fraction: number, message: string) => void, nice = 0): Promise<SelectionOutput> {
  const what = { failed: 'selection', worker: 'selection worker' };
  return runOnThread<SelectionOutput>(new URL('./selection-worker.mjs', import.meta.url), input, what, signal, { onProgress, nice, inputBytes: input.vectors.byteLength });
}
