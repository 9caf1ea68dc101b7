import { Worker } from 'node:worker_threads';
import type { EnrichmentRunnerOptions } from './enrichment-runner.js';
import type { EnrichmentWorkerReply, EnrichmentWorkerRequest } from './enrichment-worker-serve.js';
import { EnrichmentImageError } from './image-input.js';
import type { EnrichmentPool, EnrichmentType, ImageEnrichment } from './types.js';

interface Pending {
  resolve: (result: ImageEnrichment) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface EnrichmentPoolOptions extends EnrichmentRunnerOptions {
  /** Worker threads, each with its own copy of the models it was asked to run. */
  threads: number;
}

const reason = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'aborted')));

/**
 * Enrichment on worker threads (tfjs-wasm runs one thread per instance under Node, so parallelism is one model copy
 * per thread). Requests go round-robin; an aborted request rejects at once and is dropped from its worker's queue;
 * a worker that dies fails its requests and is replaced by the next request.
 */
class WorkerEnrichmentPool implements EnrichmentPool {
  private readonly workers: Slot[] = [];
  private nextId = 1;
  private turn = 0;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly runnerOptions: EnrichmentRunnerOptions,
  ) {}

  enrich(bytes: Uint8Array, types: readonly EnrichmentType[], signal?: AbortSignal): Promise<ImageEnrichment> {
    if (signal?.aborted) return Promise.reject(reason(signal));
    if (this.closed) return Promise.reject(new Error('enrichment pool is closed'));
    const slot = this.slot();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!slot.pending.delete(id)) return;
        slot.worker.postMessage({ op: 'cancel', id } satisfies EnrichmentWorkerRequest);
        if (slot.pending.size === 0) slot.worker.unref();
        reject(reason(signal!));
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
      // The bytes are copied (structured clone), so the caller's buffer stays usable.
      slot.worker.postMessage({ op: 'enrich', id, bytes, types: [...types] } satisfies EnrichmentWorkerRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const slot of workers) {
      for (const pending of slot.pending.values()) pending.reject(new Error('enrichment pool is closed'));
      slot.pending.clear();
    }
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private slot(): Slot {
    if (this.workers.length < this.size) this.workers.push(this.spawn());
    return this.workers[this.turn++ % this.workers.length]!;
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./enrichment-worker.mjs', import.meta.url), { execArgv: [], workerData: this.runnerOptions });
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (reply: EnrichmentWorkerReply) => {
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply.result);
      else if (reply.name === 'EnrichmentImageError') pending.reject(new EnrichmentImageError(reply.message));
      else pending.reject(Object.assign(new Error(reply.message), { name: reply.name }));
    });
    const fail = (err: Error) => {
      for (const pending of slot.pending.values()) pending.reject(err);
      slot.pending.clear();
      const index = this.workers.indexOf(slot);
      if (index !== -1) this.workers.splice(index, 1);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`enrichment worker exited with code ${code}`));
    });
    worker.unref();
    return slot;
  }
}

export function createEnrichmentPool(options: EnrichmentPoolOptions): EnrichmentPool {
  const threads = Math.floor(options.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${options.threads}`);
  const { threads: _threads, ...runnerOptions } = options;
  return new WorkerEnrichmentPool(threads, runnerOptions);
}
