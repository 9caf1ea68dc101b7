import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type TransferListItem, Worker } from 'node:worker_threads';

/** What a pool needs of one of its workers, whether a thread or a child process. */
export interface PoolWorker {
  post(message: unknown, transfer?: TransferListItem[]): void;
  onMessage(listener: (message: unknown) => void): void;
  onError(listener: (err: Error) => void): void;
  /** `how` is the exit code, or the signal that ended a child process. */
  onExit(listener: (how: number | string) => void): void;
  ref(): void;
  unref(): void;
  terminate(): Promise<void>;
}

/** The environment variables a child process worker reads its start data and CPU priority from (worker-port.ts). */
export const WORKER_DATA_ENV = 'LOUPE_WORKER_DATA';
export const WORKER_NICE_ENV = 'LOUPE_WORKER_NICE';

export function threadWorker(script: URL, workerData: unknown): PoolWorker {
  const worker = new Worker(script, { execArgv: [], workerData });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => worker.on('error', listener),
    onExit: (listener) => worker.on('exit', listener),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    terminate: async () => void (await worker.terminate()),
  };
}

/**
 * A worker in a child process that lowers the priority of all its threads to `nice` as it starts. Threads cannot be
 * given a lower priority reliably: the decoders run on libuv's and libvips' own threads, which the API's event loop
 * shares, so only a process of its own lets the kernel put API requests ahead of background image work.
 * `workerData` travels as JSON in the environment; messages use structured clone (typed arrays arrive as copies).
 */
export function processWorker(script: URL, workerData: unknown, nice: number): PoolWorker {
  const child = fork(fileURLToPath(script), [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [WORKER_DATA_ENV]: JSON.stringify(workerData ?? null), [WORKER_NICE_ENV]: String(nice) },
  });
  const errors: Array<(err: Error) => void> = [];
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  child.on('error', (err) => errors.forEach((listener) => listener(err)));
  return {
    post: (message) => {
      // A child that has just died answers the send with an error; its exit fails what it held.
      child.send(message as never, (err) => err && !exited() && errors.forEach((listener) => listener(err)));
    },
    onMessage: (listener) => child.on('message', listener),
    onError: (listener) => errors.push(listener),
    onExit: (listener) => child.on('exit', (code, signal) => listener(code ?? signal ?? 'unknown')),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    terminate: async () => {
      if (exited()) return;
      // Not events.once: an 'error' event (a kill that fails) must not turn a stop into a rejection.
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
