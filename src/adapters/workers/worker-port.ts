import { parentPort, workerData } from 'node:worker_threads';
import { WORKER_DATA_ENV, WORKER_NICE_ENV } from './pool-worker.js';
import { lowerPriority, runWhenIdle } from './priority.js';

/** A pool worker's side of its channel: requests in, replies out (buffers moved where the channel can). */
export interface WorkerPort {
  onMessage<M>(listener: (message: M) => void): void;
  post(message: unknown, transfer?: ArrayBuffer[]): void;
}

/**
 * The channel and start data of a pool worker (pool-worker.ts), in a worker thread or in a child process. A child
 * process lowers its priority first, and exits when its parent goes, even one killed without a chance to say so.
 */
export function workerPort<Data>(): { port: WorkerPort; data: Data } {
  if (parentPort) {
    const port = parentPort;
    return { port: { onMessage: (listener) => port.on('message', listener), post: (message, transfer) => port.postMessage(message, transfer) }, data: workerData as Data };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('a pool worker must run in a worker thread or a child process with an IPC channel');
  const nice = Number(process.env[WORKER_NICE_ENV] ?? 0);
  if (nice > 0) {
    lowerPriority(nice);
    runWhenIdle();
  }
  process.on('disconnect', () => process.exit(0));
  return {
    port: { onMessage: (listener) => process.on('message', listener), post: (message) => void send(message, () => {}) },
    data: JSON.parse(process.env[WORKER_DATA_ENV] ?? 'null') as Data,
  };
}
