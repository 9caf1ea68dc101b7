import { Worker } from 'node:worker_threads';
import type { SelectionInput, SelectionOutput } from './compute-selection.js';

/**
 * Runs computeSelection on a worker thread (its own helpers beside it): a traversal of a million items takes
 * minutes of tight loops that would otherwise stall the process's event loop. Aborting terminates the thread.
 */
export function computeSelectionOffThread(input: SelectionInput, signal: AbortSignal, onProgress: (fraction: number, message: string) => void): Promise<SelectionOutput> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./selection-worker.mjs', import.meta.url), { execArgv: [], workerData: input });
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    worker.on('message', (reply: { progress: { fraction: number; message: string } } | { ok: true; output: SelectionOutput } | { ok: false; message: string }) => {
      if ('progress' in reply) {
        onProgress(reply.progress.fraction, reply.progress.message);
        return;
      }
      done();
      void worker.terminate();
      if (reply.ok) resolve(reply.output);
      else reject(new Error(`selection failed: ${reply.message}`));
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', (code) => {
      done();
      reject(new Error(`selection worker exited with code ${code}`));
    });
  });
}
