import { type TransferListItem, Worker } from 'node:worker_threads';
import { WORKER_NICE_ENV } from './pool-worker.js';

/** Told how far a worker's computation is (0..1) and what it is doing. */
export type WorkerProgress = (fraction: number, message: string) => void;

type Reply<Out> = { progress: { fraction: number; message: string } } | { ok: true; output: Out } | { ok: false; message: string };

/**
 * Runs one computation on a worker thread of its own (`script` posts progress, then `{ok, output}` or `{ok: false,
 * message}`): minutes of native calls or tight loops that would otherwise stall the process's event loop. Aborting
 * terminates the thread. `what` names it in its errors ("indexing failed: …", "index worker exited with code 1").
 * `script` lowers its thread to `nice` (lowerThreadPriority, read from WORKER_NICE_ENV) before it starts, so background
 * builds leave the CPU to the API's event loop.
 */
export function runOnThread<Out>(
  script: URL,
  input: unknown,
  what: { failed: string; worker: string },
  signal: AbortSignal,
  onProgress: WorkerProgress = () => {},
  transferList: TransferListItem[] = [],
  nice = 0,
): Promise<Out> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { execArgv: [], workerData: input, transferList, env: { ...process.env, [WORKER_NICE_ENV]: String(nice) } });
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    worker.on('message', (reply: Reply<Out>) => {
      if ('progress' in reply) {
        onProgress(reply.progress.fraction, reply.progress.message);
        return;
      }
      done();
      void worker.terminate();
      if (reply.ok) resolve(reply.output);
      else reject(new Error(`${what.failed} failed: ${reply.message}`));
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
    worker.once('exit', (code) => {
      done();
      reject(new Error(`${what.worker} exited with code ${code}`));
    });
  });
}
