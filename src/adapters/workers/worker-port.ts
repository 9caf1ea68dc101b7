import { readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { WORKER_DATA_ENV, WORKER_NICE_ENV } from './pool-worker.js';

/** A pool worker's side of its channel: requests in, replies out (buffers moved where the channel can). */
export interface WorkerPort {
  onMessage<M>(listener: (message: M) => void): void;
  post(message: unknown, transfer?: ArrayBuffer[]): void;
}

/**
 * Raises the nice value of every thread of this process to at least `nice` (Linux's setpriority applies to one
 * thread; threads started later inherit it from the one that starts them). Lowering a priority needs no privilege.
 */
export function lowerPriority(nice: number): void {
  let tids: number[];
  try {
    tids = readdirSync('/proc/self/task').map(Number);
  } catch {
    tids = [0]; // not Linux: the call applies to the whole process
  }
  for (const tid of tids) {
    try {
      if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    } catch {
      // the thread ended between the listing and the call
    }
  }
}

/**
 * Raises the nice value of the calling thread alone to at least `nice` (a worker thread: index builds), so the threads
 * it starts later (usearch's, a neighbour graph's crew) inherit it; by default the value runOnThread passed. Linux only;
 * elsewhere the thread keeps its priority.
 */
export function lowerThreadPriority(nice = Number(process.env[WORKER_NICE_ENV] ?? 0)): void {
  if (nice <= 0) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
  } catch {
    // not Linux
  }
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
  if (nice > 0) lowerPriority(nice);
  process.on('disconnect', () => process.exit(0));
  return {
    port: { onMessage: (listener) => process.on('message', listener), post: (message) => void send(message, () => {}) },
    data: JSON.parse(process.env[WORKER_DATA_ENV] ?? 'null') as Data,
  };
}
