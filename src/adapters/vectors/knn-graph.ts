import { Worker } from 'node:worker_threads';
import type { NeighbourGraph } from '../../core/clustering.js';
import { changedItems, copyLists, emptyLists, mergeLists, rescoreLists, reverseNeighbours, truncateGraph } from '../../core/knn-lists.js';
import { type ForestContext, type ForestParams, JOIN_BLOCK, forestParams, quantizeRows } from './forest-graph.js';
import { type GraphWorkerReply, type GraphWorkerRequest, runPhase as runOnThisThread } from './graph-worker-serve.js';

/** Below this many items one thread builds the graph: starting worker threads would cost more than they save. */
export const PARALLEL_FROM = 50_000;

export interface KnnGraphBuild {
  graph: NeighbourGraph;
  params: ForestParams;
  /** Slots changed by each round of joins, and by the rescue trees between the two series of rounds. */
  rounds: number[];
  seconds: { trees: number; joins: number; rescore: number };
}

export type GraphProgress = (fraction: number, message: string) => void;

/** Vectors as the graph builder reads them: one byte per dimension (quantizeRows), shared between threads when `shared`. */
export function quantizedVectors(vectors: Float32Array, d: number, mean: Float32Array, shared: boolean): Int8Array {
  const n = vectors.length / d;
  const q8 = new Int8Array(shared ? new SharedArrayBuffer(n * d) : new ArrayBuffer(n * d));
  const buffer = vectors.buffer as ArrayBuffer & { resizable?: boolean; resize?: (bytes: number) => void };
  const shrinks = buffer.resizable === true && vectors.byteOffset === 0;
  // A length-tracking view: a fixed-length one would fall out of bounds whole at the first shrink.
  const source = shrinks ? new Float32Array(buffer) : vectors;
  const row = new Float32Array(d);
  // Last row first, so a resizable buffer (loadVectors') gives back the rows done as the bytes fill: the f32
  // vectors and their bytes are never held whole together (0.48 GB less at the peak of a 1M-item index).
  for (let i = n - 1; i >= 0; i--) {
    for (let x = 0; x < d; x++) row[x] = source[i * d + x]! - mean[x]!;
    quantizeRows(row, d, q8.subarray(i * d, (i + 1) * d));
    if (shrinks && i % SHRINK_ROWS === 0) buffer.resize!(i * d * 4);
  }
  return q8;
}

/** Rows quantised between two shrinks of a resizable vectors buffer. */
const SHRINK_ROWS = 16_384;

/** Whether a graph of n items is built on several threads (its vectors must then be shared: quantizedVectors). */
export function buildsInParallel(n: number, threads: number, parallelFrom = PARALLEL_FROM): boolean {
  return threads > 1 && n >= parallelFrom;
}

/**
 * The approximate k-nearest-neighbour graph of n vectors given one byte per dimension (quantizedVectors): random
 * projection trees searched leaf by leaf, then neighbourhood joins until lists settle, on `threads` threads, and
 * finally each list rescored and cut to k. Each row's own scale keeps a cosine within ~0.001 of the f32 one, so the
 * graph's similarities are those of the vectors, not of a coarse index.
 *
 * Why not the HNSW index's own search: on many small clusters an HNSW search reaches an item's cluster only when
 * its beam happens to touch it, so recall fell with N (0.23 at 1M, 0.76 refined). A tree leaf holds an item's
 * cluster-mates with a probability that depends on the depth, not on N, and joins complete a cluster from any one
 * member found.
 */
export async function buildKnnGraph(
  q8: Int8Array,
  d: number,
  k: number,
  threads: number,
  onProgress: GraphProgress = () => {},
  parallelFrom = PARALLEL_FROM,
): Promise<KnnGraphBuild> {
  const n = q8.length / d;
  const params = forestParams(n);
  const shared = buildsInParallel(n, threads, parallelFrom);
  if (shared && !(q8.buffer instanceof SharedArrayBuffer)) throw new Error('a graph built on several threads needs its vectors in shared memory');
  const crewSize = shared ? threads : 1;
  const ctx: ForestContext = { q8, d, n, params };
  const crew = shared ? new GraphCrew(ctx, crewSize) : null;
  const w = params.width;
  try {
    let t = performance.now();
    const own = Array.from({ length: crewSize }, () => emptyLists(n, w, shared));
    await runPhase(ctx, crew, own, params.trees, (cells) => ({ op: 'trees', cells, needy: null }), (done) =>
      onProgress((0.4 * done) / params.trees, `neighbour graph: ${done} of ${params.trees} trees`),
    );
    for (let p = 1; p < crewSize; p++) mergeLists(own[0]!, own[p]!);
    let lists = own[0]!;
    let spare = emptyLists(n, w, shared);
    const trees = (performance.now() - t) / 1000;

    /** One phase writing into fresh copies of `lists` (one per thread), merged; the merged lists become `lists`. */
    const step = async (units: number, request: (cells: Int32Array) => Omit<GraphWorkerRequest, 'lists'>, onUnits: (done: number) => void) => {
      const outputs = [spare, ...own.slice(1)];
      for (const out of outputs) copyLists(out, lists);
      await runPhase(ctx, crew, outputs, units, request, onUnits);
      for (let p = 1; p < outputs.length; p++) mergeLists(outputs[0]!, outputs[p]!);
      const before = lists;
      spare = before;
      lists = outputs[0]!;
      return { changed: changedItems(before, lists), slots: countChangedSlots(before, lists) };
    };

    t = performance.now();
    const rounds: number[] = [];
    const blocks = Math.ceil(n / JOIN_BLOCK);
    const joinUntilSettled = async (from: number, to: number, first: Uint8Array | null) => {
      let changed = first;
      for (let round = 0; round < params.maxRounds; round++) {
        const reverse = reverseNeighbours(lists, w);
        const sharedReverse = shared ? { start: toShared(reverse.start), items: toShared(reverse.items) } : reverse;
        const sharedChanged = changed && shared ? toShared(changed) : changed;
        const old = lists;
        const result = await step(blocks, (cells) => ({ op: 'join', cells, old, reverse: sharedReverse, changed: sharedChanged }), (done) =>
          onProgress(from + ((to - from) * (round + done / blocks)) / params.maxRounds, `neighbour graph: joining neighbourhoods, round ${rounds.length + 1}`),
        );
        changed = result.changed;
        rounds.push(result.slots);
        if (result.slots < params.minChangeFraction * n * w) break;
      }
    };
    await joinUntilSettled(0.4, 0.7, null);

    if (params.rescueTrees > 0) {
      const needy = weakestItems(lists, params.rescueFraction, shared);
      const rescue = await step(params.rescueTrees, (cells) => ({ op: 'trees', cells, needy }), (done) =>
        onProgress(0.7 + (0.15 * done) / params.rescueTrees, `neighbour graph: ${done} of ${params.rescueTrees} trees for the weakest lists`),
      );
      rounds.push(rescue.slots);
      await joinUntilSettled(0.85, 0.95, rescue.changed);
    }
    const joins = (performance.now() - t) / 1000;

    t = performance.now();
    onProgress(0.95, 'neighbour graph: similarities');
    const norms = rowNorms(q8, d);
    rescoreLists(lists, (i, o) => dot(q8, i * d, o * d, d) / (norms[i]! * norms[o]!));
    const graph = truncateGraph(lists, k);
    return { graph: shared && graph === lists ? unshared(graph) : graph, params, rounds, seconds: { trees, joins, rescore: (performance.now() - t) / 1000 } };
  } finally {
    await crew?.close();
  }
}

/** One phase on every thread, each writing its own lists; progress from the shared count of finished units. */
async function runPhase(
  ctx: ForestContext,
  crew: GraphCrew | null,
  lists: NeighbourGraph[],
  units: number,
  request: (cells: Int32Array) => Omit<GraphWorkerRequest, 'lists'>,
  onUnits: (done: number) => void,
): Promise<void> {
  const cells = new Int32Array(crew ? new SharedArrayBuffer(8) : new ArrayBuffer(8));
  const message = request(cells);
  if (!crew) {
    runOnThisThread(ctx, { ...message, lists: lists[0]! } as GraphWorkerRequest);
    onUnits(units);
    return;
  }
  const timer = setInterval(() => onUnits(Math.min(units, Atomics.load(cells, 1))), 1000);
  try {
    await crew.run((p) => ({ ...message, lists: lists[p]! }) as GraphWorkerRequest);
  } finally {
    clearInterval(timer);
  }
  onUnits(units);
}

/** Worker threads that share the build's vectors; each phase is one message to each and one answer back. */
class GraphCrew {
  private readonly workers: Worker[];

  constructor(ctx: ForestContext, size: number) {
    this.workers = Array.from({ length: size }, () => new Worker(new URL('./graph-worker.mjs', import.meta.url), { execArgv: [], workerData: ctx }));
  }

  run(message: (p: number) => GraphWorkerRequest): Promise<void> {
    return Promise.all(
      this.workers.map(
        (worker, p) =>
          new Promise<void>((resolve, reject) => {
            const cleanup = () => {
              worker.off('message', onMessage);
              worker.off('error', onError);
              worker.off('exit', onExit);
            };
            const onMessage = (reply: GraphWorkerReply) => {
              cleanup();
              if (reply.ok) resolve();
              else reject(new Error(`neighbour graph worker: ${reply.message}`));
            };
            const onError = (err: Error) => {
              cleanup();
              reject(err);
            };
            const onExit = (code: number) => {
              cleanup();
              reject(new Error(`neighbour graph worker exited with code ${code}`));
            };
            worker.on('message', onMessage);
            worker.on('error', onError);
            worker.on('exit', onExit);
            worker.postMessage(message(p));
          }),
      ),
    ).then(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function toShared<T extends Int32Array | Uint8Array>(array: T): T {
  const copy = new (array.constructor as new (buffer: SharedArrayBuffer) => T)(new SharedArrayBuffer(array.byteLength));
  copy.set(array as never);
  return copy;
}

/** Plain copies of lists that live in shared memory, so the result can be transferred like any other. */
function unshared(graph: NeighbourGraph): NeighbourGraph {
  return { n: graph.n, k: graph.k, neighbours: Int32Array.from(graph.neighbours), similarities: Float32Array.from(graph.similarities) };
}

/** The `fraction` of items whose best neighbour is weakest (an empty list counts as weakest), as flags. */
function weakestItems(lists: NeighbourGraph, fraction: number, shared: boolean): Uint8Array {
  const { n, k, neighbours, similarities } = lists;
  const best = new Float32Array(n);
  for (let i = 0; i < n; i++) best[i] = neighbours[i * k]! >= 0 ? similarities[i * k]! : -Infinity;
  const count = Math.min(n, Math.ceil(fraction * n));
  const flags = new Uint8Array(shared ? new SharedArrayBuffer(n) : new ArrayBuffer(n));
  if (count === 0) return flags;
  const cut = Float32Array.from(best).sort()[count - 1]!;
  for (let i = 0; i < n; i++) if (best[i]! <= cut) flags[i] = 1;
  return flags;
}

function countChangedSlots(before: NeighbourGraph, after: NeighbourGraph): number {
  let slots = 0;
  for (let e = 0; e < after.neighbours.length; e++) if (before.neighbours[e] !== after.neighbours[e]) slots++;
  return slots;
}

function rowNorms(q8: Int8Array, d: number): Float32Array {
  const n = q8.length / d;
  const norms = new Float32Array(n);
  for (let i = 0; i < n; i++) norms[i] = Math.sqrt(dot(q8, i * d, i * d, d)) || 1;
  return norms;
}

function dot(v: Int8Array, a: number, b: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let x = 0;
  for (; x + 3 < d; x += 4) {
    s0 += v[a + x]! * v[b + x]!;
    s1 += v[a + x + 1]! * v[b + x + 1]!;
    s2 += v[a + x + 2]! * v[b + x + 2]!;
    s3 += v[a + x + 3]! * v[b + x + 3]!;
  }
  for (; x < d; x++) s0 += v[a + x]! * v[b + x]!;
  return s0 + s1 + s2 + s3;
}
