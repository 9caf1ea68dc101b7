import { EnrichmentRunner, type EnrichmentRunnerOptions } from './enrichment-runner.js';
import type { EnrichmentType, ImageEnrichment } from './types.js';
import type { WorkerPort } from '../../workers/worker-port.js';

export type EnrichmentWorkerRequest =
  | { op: 'enrich'; id: number; bytes: Uint8Array; types: EnrichmentType[] }
  | { op: 'cancel'; id: number };

export type EnrichmentWorkerReply = { id: number; ok: true; result: ImageEnrichment } | { id: number; ok: false; name: string; message: string };

/**
 * Answers enrich requests one at a time (the models are CPU-bound; interleaving would only add latency). A cancel
 * drops a queued request, or stops a running one at its next step.
 */
export function serve({ port, data }: { port: WorkerPort; data: EnrichmentRunnerOptions | null }): void {
  const runner = new EnrichmentRunner(data ?? {});
  const queue: Array<Extract<EnrichmentWorkerRequest, { op: 'enrich' }>> = [];
  const running = new Map<number, AbortController>();
  let busy = false;

  const reply = (message: EnrichmentWorkerReply) => port.post(message);
  const fail = (id: number, err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    reply({ id, ok: false, name: error.name, message: error.message });
  };

  const next = async () => {
    if (busy) return;
    busy = true;
    try {
      for (let request = queue.shift(); request; request = queue.shift()) {
        const controller = new AbortController();
        running.set(request.id, controller);
        try {
          reply({ id: request.id, ok: true, result: await runner.enrich(request.bytes, request.types, controller.signal) });
        } catch (err) {
          fail(request.id, err);
        } finally {
          running.delete(request.id);
        }
      }
    } finally {
      busy = false;
    }
  };

  port.onMessage((request: EnrichmentWorkerRequest) => {
    if (request.op === 'cancel') {
      const index = queue.findIndex((q) => q.id === request.id);
      if (index !== -1) queue.splice(index, 1);
      running.get(request.id)?.abort(new Error('enrichment cancelled'));
      return;
    }
    queue.push(request);
    void next();
  });
}
