import { ThreadPool } from '../../workers/thread-pool.js';
import type { EnrichmentRunnerOptions } from './enrichment-runner.js';
import type { EnrichmentWorkerReply, EnrichmentWorkerRequest } from './enrichment-worker-serve.js';
import { EnrichmentImageError } from './image-input.js';
import type { EnrichmentPool, EnrichmentType, ImageEnrichment } from './types.js';

export interface EnrichmentPoolOptions extends EnrichmentRunnerOptions {
  /** Workers, each with its own copy of the models it was asked to run. */
  threads: number;
  /** Run the workers as child processes at this nice value (pool-worker.ts) rather than as threads. */
  nice?: number;
}

/**
 * Enrichment on workers, threads or niced child processes (tfjs-wasm runs one thread per instance under Node, so
 * parallelism is one model copy per worker). An aborted request is also dropped from its worker's queue.
 */
class WorkerEnrichmentPool implements EnrichmentPool {
  private readonly pool: ThreadPool<Extract<EnrichmentWorkerReply, { ok: true }>>;

  constructor(size: number, runnerOptions: EnrichmentRunnerOptions, nice: number | undefined) {
    this.pool = new ThreadPool({
      ...(nice === undefined ? {} : { nice }),
      script: new URL('./enrichment-worker.mjs', import.meta.url),
      workerData: runnerOptions,
      size,
      name: 'enrichment worker',
      toError: (reply) => (reply.name === 'EnrichmentImageError' ? new EnrichmentImageError(reply.message) : Object.assign(new Error(reply.message), { name: reply.name })),
      cancelMessage: (id) => ({ op: 'cancel', id }) satisfies EnrichmentWorkerRequest,
    });
  }

  async enrich(bytes: Uint8Array, types: readonly EnrichmentType[], signal?: AbortSignal): Promise<ImageEnrichment> {
    // The bytes are copied (structured clone), so the caller's buffer stays usable.
    const reply = await this.pool.request((id) => ({ op: 'enrich', id, bytes, types: [...types] }) satisfies EnrichmentWorkerRequest, signal);
    return reply.result;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export function createEnrichmentPool(options: EnrichmentPoolOptions): EnrichmentPool {
  const threads = Math.floor(options.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${options.threads}`);
  const { threads: _threads, nice, ...runnerOptions } = options;
  return new WorkerEnrichmentPool(threads, runnerOptions, nice);
}
