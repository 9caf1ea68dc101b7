import type { MessagePort } from 'node:worker_threads';
import type { NeighbourGraph } from '../../core/clustering.js';
import { mergeLists } from '../../core/knn-lists.js';
import { type CrossContext, plantCrossTrees, searchAll } from './cross-forest.js';

/** One step of a search across sides; the vectors, sides and lists live in shared memory. */
export type CrossWorkerRequest =
  | { op: 'trees'; ctx: CrossContext; lists: NeighbourGraph; cells: Int32Array }
  | { op: 'exact'; ctx: CrossContext; lists: NeighbourGraph; threads: number }
  | { op: 'merge'; target: NeighbourGraph; sources: NeighbourGraph[] };

export type CrossWorkerReply = { ok: true } | { ok: false; message: string };

export function runCrossStep(request: CrossWorkerRequest): void {
  if (request.op === 'trees') plantCrossTrees(request.ctx, request.lists, request.cells);
  else if (request.op === 'exact') searchAll(request.ctx, request.lists, request.threads);
  else for (const source of request.sources) mergeLists(request.target, source);
}

export function serve(port: MessagePort | null): void {
  port?.on('message', (request: CrossWorkerRequest) => {
    let reply: CrossWorkerReply;
    try {
      runCrossStep(request);
      reply = { ok: true };
    } catch (err) {
      reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
}
