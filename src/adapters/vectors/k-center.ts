import { Worker } from 'node:worker_threads';

/**
 * Greedy k-center (Gonzalez's farthest-first traversal) in tight typed-array loops shared by several threads: each
 * pick is the item farthest (squared Euclidean distance) from every pick before it. The rows come in k-d order (leaves
 * of 64, kdOrder): a leaf whose bounding box is farther from the new pick than its farthest item is skipped whole. The rows and every item's distance
 * to its nearest pick live in SharedArrayBuffers; each thread owns a slice of the items, and per pick updates its
 * slice's distances and reports its farthest item, under a barrier of Atomics (microseconds, 10,000 times).
 * A distance is summed with an early exit once it passes the item's current distance (partial distance search),
 * which skips most of the work late in the run, when the picks cover every item closely.
 */

/** What the threads share: rows (n × dims, f32) and the slices' state. */
export interface CrewData {
  rows: Float32Array;
  dims: number;
  minDist: Float32Array;
  /** Items per leaf: the rows come in leaf runs of a k-d order (kdOrder), each with its bounding box. */
  leaf: number;
  /** Per leaf and dimension: the box's low and high corner (leaves × dims). */
  lo: Float32Array;
  hi: Float32Array;
  /** Per leaf: the largest distance of its unpicked items to their nearest pick, and which item has it. */
  leafMax: Float32Array;
  leafArg: Int32Array;
  /** [generation, command, argument, done] */
  ctrl: Int32Array;
  /** Per thread: its farthest item's distance and index. */
  best: Float64Array;
  threads: number;
}

const GEN = 0;
const COMMAND = 1;
const ARG = 2;
const DONE = 3;
const STOP = 0;
const PICK = 2;
const BOUNDS = 3;

function sharedFloats(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(Math.max(1, length) * 4));
}

export function crewData(rows: Float32Array, dims: number, threads: number, leaf = 64): CrewData {
  const n = rows.length / dims;
  const leaves = Math.ceil(n / leaf);
  return {
    leaf,
    lo: sharedFloats(leaves * dims),
    hi: sharedFloats(leaves * dims),
    leafMax: sharedFloats(leaves),
    leafArg: new Int32Array(new SharedArrayBuffer(Math.max(1, leaves) * 4)),
    rows,
    dims,
    minDist: sharedFloats(n),
    ctrl: new Int32Array(new SharedArrayBuffer(16)),
    best: new Float64Array(new SharedArrayBuffer(threads * 16)),
    threads,
  };
}

const count = (data: CrewData) => data.minDist.length;
/** A thread's items: whole leaves. */
const sliceOf = (data: CrewData, t: number): [number, number] => {
  const leaves = Math.ceil(count(data) / data.leaf);
  const edge = (u: number) => Math.min(count(data), Math.floor((leaves * u) / data.threads) * data.leaf);
  return [edge(t), edge(t + 1)];
};

/** Each leaf's bounding box, over the final rows. */
function bounds(data: CrewData, from: number, to: number): void {
  const { rows, dims, leaf, lo, hi } = data;
  for (let start = from; start < to; start += leaf) {
    const b = start / leaf;
    const end = Math.min(to, start + leaf);
    for (let x = 0; x < dims; x++) {
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = start; i < end; i++) {
        const v = rows[i * dims + x]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      lo[b * dims + x] = min;
      hi[b * dims + x] = max;
    }
  }
}

/**
 * Folds pick `p` into the slice's distances; writes the slice's farthest unpicked item into best[t]. A leaf whose box is
 * farther from the pick than its farthest item's distance cannot change: it is skipped whole (its max stands).
 */
function updateSlice(data: CrewData, t: number, p: number, from: number, to: number, pick: Float32Array): void {
  const { rows, dims, minDist, best, leaf, lo, hi, leafMax, leafArg } = data;
  for (let x = 0; x < dims; x++) pick[x] = rows[p * dims + x]!;
  let far = -1;
  let farItem = -1;
  for (let start = from; start < to; start += leaf) {
    const b = start / leaf;
    const bound = leafMax[b]!;
    let gap = 0;
    for (let x = 0; x < dims && gap < bound; x++) {
      const q = pick[x]!;
      const below = lo[b * dims + x]! - q;
      const above = q - hi[b * dims + x]!;
      if (below > 0) gap += below * below;
      else if (above > 0) gap += above * above;
    }
    if (gap < bound) {
      let max = -1;
      let arg = -1;
      const end = Math.min(to, start + leaf);
      for (let i = start; i < end; i++) {
        const current = minDist[i]!;
        if (current < 0) continue;
        const base = i * dims;
        let sum = 0;
        let x = 0;
        // Blocks of 8 before each check: the check costs about as much as a dimension.
        for (; x + 8 <= dims && sum < current; x += 8) {
          const d0 = rows[base + x]! - pick[x]!;
          const d1 = rows[base + x + 1]! - pick[x + 1]!;
          const d2 = rows[base + x + 2]! - pick[x + 2]!;
          const d3 = rows[base + x + 3]! - pick[x + 3]!;
          const d4 = rows[base + x + 4]! - pick[x + 4]!;
          const d5 = rows[base + x + 5]! - pick[x + 5]!;
          const d6 = rows[base + x + 6]! - pick[x + 6]!;
          const d7 = rows[base + x + 7]! - pick[x + 7]!;
          sum += d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3 + d4 * d4 + d5 * d5 + d6 * d6 + d7 * d7;
        }
        for (; x < dims && sum < current; x++) {
          const dx = rows[base + x]! - pick[x]!;
          sum += dx * dx;
        }
        const value = sum < current ? sum : current;
        if (sum < current) minDist[i] = sum;
        if (value > max) {
          max = value;
          arg = i;
        }
      }
      leafMax[b] = max;
      leafArg[b] = arg;
    }
    const value = leafMax[b]!;
    if (value > far) {
      far = value;
      farItem = leafArg[b]!;
    }
  }
  best[2 * t] = far;
  best[2 * t + 1] = farItem;
}

/** One thread's share of the current command. */
function runShare(data: CrewData, t: number, pick: Float32Array): void {
  const [from, to] = sliceOf(data, t);
  const command = Atomics.load(data.ctrl, COMMAND);
  if (command === BOUNDS) bounds(data, from, to);
  else if (command === PICK) updateSlice(data, t, Atomics.load(data.ctrl, ARG), from, to, pick);
}

/** A helper thread's loop: wait for the next generation, run its share, count itself done. */
export function helperLoop(data: CrewData, t: number): void {
  const pick = new Float32Array(data.dims);
  let generation = 0;
  for (;;) {
    Atomics.wait(data.ctrl, GEN, generation);
    generation = Atomics.load(data.ctrl, GEN);
    if (Atomics.load(data.ctrl, COMMAND) === STOP) return;
    runShare(data, t, pick);
    Atomics.add(data.ctrl, DONE, 1);
    Atomics.notify(data.ctrl, DONE);
  }
}

/** Thread 0's side: its helpers, and one call per command that returns when every share is done. */
export class Crew {
  private readonly helpers: Worker[] = [];
  private readonly pick: Float32Array;

  constructor(readonly data: CrewData) {
    this.pick = new Float32Array(data.dims);
    for (let t = 1; t < data.threads; t++) {
      this.helpers.push(new Worker(new URL('./k-center-helper.mjs', import.meta.url), { execArgv: [], workerData: { data, t } }));
    }
  }

  run(command: number, arg = 0): void {
    const { ctrl } = this.data;
    Atomics.store(ctrl, COMMAND, command);
    Atomics.store(ctrl, ARG, arg);
    Atomics.store(ctrl, DONE, 0);
    Atomics.add(ctrl, GEN, 1);
    Atomics.notify(ctrl, GEN);
    runShare(this.data, 0, this.pick);
    const others = this.data.threads - 1;
    for (;;) {
      const done = Atomics.load(ctrl, DONE);
      if (done >= others) return;
      Atomics.wait(ctrl, DONE, done, 1000);
    }
  }

  async close(): Promise<void> {
    Atomics.store(this.data.ctrl, COMMAND, STOP);
    Atomics.add(this.data.ctrl, GEN, 1);
    Atomics.notify(this.data.ctrl, GEN);
    await Promise.all(this.helpers.map((w) => w.terminate()));
  }
}

export interface KCenterResult {
  /** Item indices in the order they were picked. */
  picks: Int32Array;
  /** radius[i]: the squared distance of picks[i + 1] to its nearest earlier pick (the covering radius of picks[0..i]). */
  radius: Float32Array;
  /** The largest squared distance of any item to its nearest pick. */
  finalRadius: number;
}

/**
 * k picks by farthest-first from item `start` over the crew's rows.
 * `onPick` is called every `every` picks (progress, abort: it may throw).
 */
export function farthestFirst(crew: Crew, k: number, start: number, onPick: (picked: number) => void, every = 256): KCenterResult {
  const { data } = crew;
  const n = count(data);
  if (k < 1 || k > n) throw new RangeError(`k must be between 1 and ${n}`);
  data.minDist.fill(Number.POSITIVE_INFINITY);
  data.leafMax.fill(Number.POSITIVE_INFINITY);
  crew.run(BOUNDS);
  const picks = new Int32Array(k);
  const radius = new Float32Array(k - 1);
  let next = start;
  for (let p = 0; p < k; p++) {
    picks[p] = next;
    data.minDist[next] = -1;
    // Its leaf is looked at again, so the leaf's max no longer names it.
    data.leafMax[Math.floor(next / data.leaf)] = Number.POSITIVE_INFINITY;
    crew.run(PICK, next);
    let far = -1;
    let farItem = -1;
    for (let t = 0; t < data.threads; t++) {
      const value = data.best[2 * t]!;
      const item = data.best[2 * t + 1]!;
      // Ties go to the lowest index, so the result does not depend on the number of threads.
      if (value > far || (value === far && item < farItem)) {
        far = value;
        farItem = item;
      }
    }
    if (p + 1 < k) {
      radius[p] = far;
      next = farItem;
    }
    if ((p + 1) % every === 0) onPick(p + 1);
  }
  let finalRadius = 0;
  for (let i = 0; i < n; i++) if (data.minDist[i]! > finalRadius) finalRadius = data.minDist[i]!;
  return { picks, radius, finalRadius };
}

