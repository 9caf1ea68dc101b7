import { type PoolWorker, processWorker, threadWorker } from './pool-worker.js';

/** A worker's answer to request `id`: its result, or the name and message of the error it threw. */
export type FailedReply = { id: number; ok: false; name: string; message: string };

export interface ThreadPoolOptions {
  /** The worker's entry file. */
  script: URL;
  workerData: unknown;
  /** Most threads; they start as requests arrive. */
  size: number;
  /** What the pool runs ("image worker", "enrichment worker"), for its errors. */
  name: string;
  /** The error a failed reply becomes, so callers can tell a bad input from a crash. */
  toError(reply: FailedReply): Error;
  /** The message that tells a worker to drop a request whose caller gave up; none where workers cannot. */
  cancelMessage?(id: number): unknown;
  /** Run each worker in a child process at this nice value (pool-worker.ts) instead of a thread. */
  nice?: number;
}

interface Pending<Ok> {
  resolve: (reply: Ok) => void;
  reject: (err: Error) => void;
}

interface Slot<Ok> {
  worker: PoolWorker;
  pending: Map<number, Pending<Ok>>;
}

const abortReason = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'aborted')));

/**
 * Requests to worker threads (or child processes), round-robin, answered by id. An aborted request rejects at once; a
 * worker that dies fails the requests it held and is replaced by the next request; an idle worker does not keep the
 * process alive.
 */
export class ThreadPool<Ok extends { id: number; ok: true }> {
  private readonly workers: Array<Slot<Ok>> = [];
  private nextId = 1;
  private turn = 0;
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Posts `message(id)` to the next worker and waits for its successful reply. */
  request(message: (id: number) => unknown, signal?: AbortSignal): Promise<Ok> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.closed) return Promise.reject(new Error(`${this.options.name} pool is closed`));
    const slot = this.slot();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!slot.pending.delete(id)) return;
        const cancel = this.options.cancelMessage?.(id);
        if (cancel !== undefined) slot.worker.post(cancel);
        if (slot.pending.size === 0) slot.worker.unref();
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (v: T) => void) =>
        (v: T) => {
          signal?.removeEventListener('abort', onAbort);
          // An idle worker must not keep the process alive; a busy one must.
          if (slot.pending.size === 0) slot.worker.unref();
          fn(v);
        };
      slot.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      slot.worker.ref();
      slot.worker.post(message(id));
    });
  }

  /** Fails what is still pending and stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const slot of workers) {
      for (const pending of slot.pending.values()) pending.reject(new Error(`${this.options.name} pool is closed`));
      slot.pending.clear();
    }
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private slot(): Slot<Ok> {
    if (this.workers.length < this.options.size) this.workers.push(this.spawn());
    return this.workers[this.turn++ % this.workers.length]!;
  }

  private spawn(): Slot<Ok> {
    const { script, workerData, nice } = this.options;
    const worker = nice === undefined ? threadWorker(script, workerData) : processWorker(script, workerData, nice);
    const slot: Slot<Ok> = { worker, pending: new Map() };
    worker.onMessage((message) => {
      const reply = message as Ok | FailedReply;
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply);
      else pending.reject(this.options.toError(reply));
    });
    const fail = (err: Error) => {
      for (const pending of slot.pending.values()) pending.reject(err);
      slot.pending.clear();
      const index = this.workers.indexOf(slot);
      if (index !== -1) this.workers.splice(index, 1);
    };
    worker.onError(fail);
    worker.onExit((how) => {
      if (!this.closed) fail(new Error(`${this.options.name} exited with ${typeof how === 'number' ? `code ${how}` : how}`));
    });
    worker.unref();
    return slot;
  }
}
