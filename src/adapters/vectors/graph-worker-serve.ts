import type { MessagePort } from 'node:worker_threads';
import type { NeighbourGraph } from '../../core/clustering.js';
import { type ForestContext, type JoinInput, joinNeighbourhoods, plantTrees } from './forest-graph.js';

/** One phase of a graph build; the lists' arrays live in shared memory when the request crosses threads. */
export type GraphWorkerRequest =
  | { op: 'trees'; lists: NeighbourGraph; cells: Int32Array; needy: Uint8Array | null }
  | { op: 'join'; lists: NeighbourGraph; cells: Int32Array; old: NeighbourGraph; reverse: JoinInput['reverse']; changed: Uint8Array | null };

export type GraphWorkerReply = { ok: true } | { ok: false; message: string };

/** Runs one phase of a graph build on this thread's share of the work (on a worker, or on the caller's thread). */
export function runPhase(ctx: ForestContext, request: GraphWorkerRequest): void {
  const counters = { cells: request.cells };
  if (request.op === 'trees') plantTrees(ctx, request.lists, counters, request.needy);
  else joinNeighbourhoods(ctx, { old: request.old, reverse: request.reverse, changed: request.changed }, request.lists, counters);
}

export function serve(port: MessagePort | null, ctx: ForestContext): void {
  port?.on('message', (request: GraphWorkerRequest) => {
    let reply: GraphWorkerReply;
    try {
      runPhase(ctx, request);
      reply = { ok: true };
    } catch (err) {
      reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
}
