import { Worker } from 'node:worker_threads';
import type { IndexInput, IndexOutput, IndexProgress } from './compute-index.js';

/**
 * Runs computeIndex on a worker thread: building the graph of a large version takes minutes of native
 * calls that would otherwise stall the API on the same process. Aborting terminates the thread.
 */
export function computeIndexOffThread(input: IndexInput, signal: AbortSignal, onProgress: IndexProgress = () => {}): Promise<IndexOutput> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./index-worker.mjs', import.meta.url), {
      execArgv: [],
      workerData: input,
      transferList: [input.vectors.buffer as ArrayBuffer],
    });
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    worker.on('message', (reply: { progress: { fraction: number; message: string } } | { ok: true; output: IndexOutput } | { ok: false; message: string }) => {
      if ('progress' in reply) {
        onProgress(reply.progress.fraction, reply.progress.message);
        return;
      }
      done();
      void worker.terminate();
      if (reply.ok) resolve(reply.output);
      else reject(new Error(`indexing failed: ${reply.message}`));
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', (code) => {
      done();
      reject(new Error(`index worker exited with code ${code}`));
    });
  });
}
