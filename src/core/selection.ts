import { errors } from './errors.js';

/** How a subset is chosen (docs/curation.md, Diverse subsets). */
export const SELECTION_STRATEGIES = ['diverse', 'representative', 'uncertain'] as const;
export type SelectionStrategy = (typeof SELECTION_STRATEGIES)[number];

export const SELECTION_ACTIONS = ['tag', 'clone'] as const;
export type SelectionAction = (typeof SELECTION_ACTIONS)[number];

export const DEFAULT_SELECTION_TAG = 'selected';

/** The size of a selection of `n` or `fraction` (exactly one) among `available` media; 422 otherwise. */
export function selectionSize(request: { n?: number; fraction?: number }, available: number): number {
  if ((request.n === undefined) === (request.fraction === undefined)) throw errors.validation('Give exactly one of n and fraction');
  if (request.fraction !== undefined) {
    if (!(request.fraction > 0 && request.fraction <= 1)) throw errors.validation('fraction must be greater than 0 and at most 1');
    if (available === 0) throw errors.validation('There are no media to select from');
    return Math.max(1, Math.round(request.fraction * available));
  }
  const n = request.n!;
  if (!Number.isInteger(n) || n <= 0) throw errors.validation('n must be a positive integer');
  if (n > available) throw errors.validation(`n is ${n} but there are only ${available} media to select from`);
  return n;
}

/**
 * Picks per cluster in proportion to its size (largest remainder, Hamilton's method): each cluster gets
 * ⌊k · size / total⌋, and what is left goes one each to the largest remainders (ties: the larger cluster, then the
 * lower label). Sums to k for any k ≤ total; no cluster gets more than its size.
 */
export function allocateBySize(sizes: Int32Array, k: number): Int32Array {
  const c = sizes.length;
  let total = 0;
  for (let l = 0; l < c; l++) total += sizes[l]!;
  const quota = new Int32Array(c);
  if (total === 0 || k <= 0) return quota;
  const remainders: Array<[number, number]> = [];
  let given = 0;
  for (let l = 0; l < c; l++) {
    const exact = (k * sizes[l]!) / total;
    quota[l] = Math.min(sizes[l]!, Math.floor(exact));
    given += quota[l]!;
    remainders.push([exact - quota[l]!, l]);
  }
  remainders.sort((a, b) => b[0] - a[0] || sizes[b[1]]! - sizes[a[1]]! || a[1] - b[1]);
  for (let r = 0; given < k; r = (r + 1) % c) {
    const l = remainders[r]![1];
    if (quota[l]! < sizes[l]!) {
      quota[l]!++;
      given++;
    }
  }
  return quota;
}
