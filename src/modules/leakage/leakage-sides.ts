import { quantizeRows } from '../../adapters/vectors/forest-graph.js';
import type { LeakageRepo, SideIndex } from './leakage.repo.js';

/** Both sides of a run, held for the search: one byte per dimension, the side of each item, its media id as 16 bytes. */
export interface LoadedSides {
  n: number;
  d: number;
  /** Shared with the search's worker threads. */
  q8: Int8Array;
  codes: Int8Array;
  ids: Uint8Array;
  /** Items per side number. */
  sizes: number[];
}

/** One stream of a run's vectors: a version's embedded media, of one side (`code`) or of the splits named by `split`. */
export interface SideSource {
  index: SideIndex;
  code: number | null;
  split: { field: string; values: string[] } | null;
}

/** Rows read between progress reports. */
const REPORT_EVERY = 20_000;

/**
 * Streams the sources' vectors (never all as f32 or as objects): each centred on `mean`, quantised into shared memory
 * (quantizeRows: cosines within ~0.001), its side and id kept. `capacity` bounds the items (the versions' members).
 */
export async function loadSides(
  repo: LeakageRepo,
  sources: SideSource[],
  sides: number,
  capacity: number,
  mean: Float32Array,
  signal: AbortSignal,
  onRows: (rows: number) => Promise<void>,
): Promise<LoadedSides> {
  const d = mean.length;
  const q8 = new Int8Array(new SharedArrayBuffer(Math.max(1, capacity * d)));
  const codes = new Int8Array(new SharedArrayBuffer(Math.max(1, capacity))).fill(-1);
  const ids = new Uint8Array(capacity * 16);
  const sizes = new Array<number>(sides).fill(0);
  const row = new Float32Array(d);
  const raw = new Float32Array(d);
  let n = 0;
  for (const source of sources) {
    const codeOf = new Map(source.split?.values.map((v, i) => [v, i]) ?? []);
    for await (const item of repo.sideRows(source.index.versionId, source.index.model, source.split, signal)) {
      const code = source.code ?? codeOf.get(item.value ?? '') ?? -1;
      if (code < 0) continue;
      if (n >= capacity) throw new Error('the sides hold more media than their versions counted');
      if (item.vector.byteLength !== d * 4) throw new Error(`an embedding does not have ${d} dimensions`);
      // The bytes' offset inside the stream's buffer need not be a multiple of 4: copied, not viewed.
      new Uint8Array(raw.buffer).set(item.vector);
      for (let x = 0; x < d; x++) row[x] = raw[x]! - mean[x]!;
      quantizeRows(row, d, q8.subarray(n * d, (n + 1) * d));
      codes[n] = code;
      ids.set(item.id, n * 16);
      sizes[code]!++;
      n++;
      if (n % REPORT_EVERY === 0) await onRows(n);
    }
  }
  await onRows(n);
  return { n, d, q8: q8.subarray(0, n * d), codes: codes.subarray(0, n), ids, sizes };
}

/** The mean both sides are centred on: each version's own for one dataset; for two, theirs weighted by their items. */
export function sharedMean(indexes: SideIndex[]): Float32Array {
  const d = indexes[0]!.dimensions;
  const total = indexes.reduce((sum, i) => sum + Math.max(1, i.itemCount), 0);
  const mean = new Float32Array(d);
  for (const index of indexes) {
    const weight = Math.max(1, index.itemCount) / total;
    for (let x = 0; x < d; x++) mean[x] = mean[x]! + weight * index.mean[x]!;
  }
  return mean;
}

/** Item i's media id as text. */
export function mediaIdOf(ids: Uint8Array, i: number): string {
  const hex = Buffer.from(ids.buffer, ids.byteOffset + i * 16, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
