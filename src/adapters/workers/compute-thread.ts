import { type TransferListItem, Worker } from 'node:worker_threads';
import { WORKER_NICE_ENV } from './pool-worker.js';

/** Told how far a worker's computation is (0..1) and what it is doing. */
export type WorkerProgress = (fraction: number, message: string) => void;

type Reply<Out> = { progress: { fraction: number; message: string } } | { ok: true; output: Out } | { ok: false; message: string };

/**
 * How long a thread that finished its computation waits for the next one before it ends. A fresh thread loads its
 * TypeScript through tsx first: ~0.5 s of CPU and ~0.35 s before an index build can start (compute-index.ts's imports),
 * which was most of the index stage of a small dataset.
 */
const IDLE_MS = 30_000;
/**
 * Only a thread whose input was at most this large is kept: an idle thread collects garbage late, and a large build's
 * would hold its vectors' memory until then. Large builds take minutes, where a thread's start does not count.
 */
const KEEP_MAX_BYTES = 64 * 2 ** 20;

export interface ThreadRunOptions {
  onProgress?: WorkerProgress;
  /** Buffers of `input` moved to the thread rather than copied. */
  transferList?: TransferListItem[];
  /** The nice value of the thread and of those it starts. */
  nice?: number;
  /** The bulk of `input` in bytes (its vectors); unknown means large. */
  inputBytes?: number;
}

interface Idle {
  worker: Worker;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

/** At most one idle thread per script and nice value; module-wide, as the threads hold no state between computations. */
const idle = new Map<string, Idle>();

function takeIdle(key: string): Worker | null {
  const spare = idle.get(key);
  if (!spare) return null;
  idle.delete(key);
  clearTimeout(spare.timer);
  spare.worker.off('exit', spare.onExit);
  spare.worker.ref();
  return spare.worker;
}

function keepIdle(key: string, worker: Worker): void {
  if (idle.has(key)) {
    void worker.terminate();
    return;
  }
  worker.unref(); // an idle thread never keeps the process alive
  const onExit = () => idle.get(key)?.worker === worker && idle.delete(key);
  const timer = setTimeout(() => {
    idle.delete(key);
    void worker.terminate();
  }, IDLE_MS).unref();
  worker.once('exit', onExit);
  idle.set(key, { worker, timer, onExit });
}

/**
 * Runs one computation on a worker thread (`script` takes each input as a message and posts progress, then `{ok,
 * output}` or `{ok: false, message}`): minutes of native calls or tight loops that would otherwise stall the process's
 * event loop. A thread that answered a small input (KEEP_MAX_BYTES) waits IDLE_MS for the next computation of the same
 * script and nice value. Aborting terminates the thread. `what` names it in its errors ("indexing failed: …", "index worker exited with code
 * 1"). `script` lowers its thread to `nice` (lowerThreadPriority, read from WORKER_NICE_ENV) before it starts, so
 * background builds leave the CPU to the API's event loop.
 */
export function runOnThread<Out>(
  script: URL,
  input: unknown,
  what: { failed: string; worker: string },
  signal: AbortSignal,
  options: ThreadRunOptions = {},
): Promise<Out> {
  const { onProgress = () => {}, transferList = [], nice = 0, inputBytes = Infinity } = options;
  signal.throwIfAborted();
  const key = `${script.href}\n${nice}`;
  return new Promise((resolve, reject) => {
    const worker = takeIdle(key) ?? new Worker(script, { execArgv: [], env: { ...process.env, [WORKER_NICE_ENV]: String(nice) } });
    const onAbort = () => {
      done();
      void worker.terminate();
      reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    };
    const onMessage = (reply: Reply<Out>) => {
      if ('progress' in reply) {
        onProgress(reply.progress.fraction, reply.progress.message);
        return;
      }
      done();
      if (inputBytes <= KEEP_MAX_BYTES) keepIdle(key, worker);
      else void worker.terminate();
      if (reply.ok) resolve(reply.output);
      else reject(new Error(`${what.failed} failed: ${reply.message}`));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`${what.worker} exited with code ${code}`));
    };
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(input, transferList);
  });
}
