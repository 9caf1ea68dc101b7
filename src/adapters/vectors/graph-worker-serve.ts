import type { MessagePort } from 'node:worker_threads';
import { listsOf } from '../../core/knn-lists.js';
import { type ForestContext, type JoinInput, joinNeighbourhoods, plantTrees } from './forest-graph.js';

/** Lists as they cross threads: their shared arrays. */
export interface SharedLists {
  n: number;
  k: number;
  neighbours: Int32Array;
  similarities: Float32Array;
}

export type GraphWorkerRequest =
  | { op: 'trees'; lists: SharedLists; cells: Int32Array; needy: Uint8Array | null }
  | { op: 'join'; lists: SharedLists; cells: Int32Array; old: SharedLists; reverse: JoinInput['reverse']; changed: Uint8Array | null };

export type GraphWorkerReply = { ok: true } | { ok: false; message: string };

const revive = (l: SharedLists) => listsOf(l.n, l.k, l.neighbours, l.similarities);

/** Runs one phase of a graph build on this thread's share of the work, then answers. */
export function runPhase(ctx: ForestContext, request: GraphWorkerRequest): void {
  const lists = revive(request.lists);
  if (request.op === 'trees') plantTrees(ctx, lists, { cells: request.cells }, request.needy);
  else joinNeighbourhoods(ctx, { old: revive(request.old), reverse: request.reverse, changed: request.changed }, lists, { cells: request.cells });
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
