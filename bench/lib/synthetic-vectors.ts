/** Seeded synthetic embeddings that look like real ones (clusters, duplicates, isolated points), for the index benches. */

import { Rng } from '../../src/core/random.js';

export const ITEMS_PER_CENTRE = 20;
export const SPREAD = [0.3, 0.9] as const;
export const DUPLICATE_FRACTION = 0.02;
export const ISOLATED_FRACTION = 0.01;
/** Norm of the noise added to a near duplicate (before re-normalising): cosine to its source ≈ 0.9998. */
export const NEAR_DUPLICATE_NOISE = 0.02;
/** Bits flipped in a near duplicate's perceptual hash (exact copies share their source's hash). */
export const NEAR_DUPLICATE_PHASH_BITS = 2;

export { Rng };

/** Scales row `i` of `v` to unit length, in place. */
function normaliseRow(v: Float32Array, i: number, d: number): void {
  const base = i * d;
  let norm = 0;
  for (let x = 0; x < d; x++) norm += v[base + x]! * v[base + x]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let x = 0; x < d; x++) v[base + x] = v[base + x]! / norm;
}

export interface Synthetic {
  vectors: Float32Array;
  phashes: string[];
  centres: number;
  /** Flat (duplicate, source) pairs, exact and near copies alike. */
  duplicates: Int32Array;
  exactCopies: number;
  isolated: Int32Array;
  /** The centre each item was drawn around (a duplicate: its source's), -1 for an isolated point. */
  centreOf: Int32Array;
}

/**
 * n unit vectors that look like embeddings rather than uniform noise: n/20 Gaussian centres (unit norm), each
 * item a centre plus isotropic Gaussian noise whose norm is the cluster's spread (drawn from [0.3, 0.9]) times
 * the centre's, 2 % duplicates of an earlier item (half exact, half with tiny noise), 1 % pure noise.
 * Written row by row into one Float32Array; only the centres (n/20 rows) are held besides it.
 */
export function generate(n: number, d: number, seed: number): Synthetic {
  const rng = new Rng(seed);
  const nCentres = Math.max(1, Math.round(n / ITEMS_PER_CENTRE));
  const centres = new Float32Array(nCentres * d);
  const sigma = new Float32Array(nCentres);
  for (let c = 0; c < nCentres; c++) {
    for (let x = 0; x < d; x++) centres[c * d + x] = rng.gaussian();
    normaliseRow(centres, c, d);
    // Per-dimension sigma so that the noise vector's expected norm is the spread (the centre's norm is 1).
    sigma[c] = (SPREAD[0] + (SPREAD[1] - SPREAD[0]) * rng.uniform()) / Math.sqrt(d);
  }
  const vectors = new Float32Array(n * d);
  const phashes = new Array<string>(n);
  const duplicates: number[] = [];
  const isolated: number[] = [];
  let exactCopies = 0;
  const centreOf = new Int32Array(n).fill(-1);
  const nearSigma = NEAR_DUPLICATE_NOISE / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    const base = i * d;
    const role = rng.uniform();
    if (role < ISOLATED_FRACTION) {
      for (let x = 0; x < d; x++) vectors[base + x] = rng.gaussian();
      phashes[i] = rng.hex64();
      isolated.push(i);
    } else if (role < ISOLATED_FRACTION + DUPLICATE_FRACTION && i > 0) {
      const source = rng.int(i);
      centreOf[i] = centreOf[source]!;
      const from = source * d;
      if (rng.uniform() < 0.5) {
        vectors.copyWithin(base, from, from + d);
        phashes[i] = phashes[source]!;
        exactCopies++;
      } else {
        for (let x = 0; x < d; x++) vectors[base + x] = vectors[from + x]! + nearSigma * rng.gaussian();
        let hash = BigInt(`0x${phashes[source]!}`);
        for (let b = 0; b < NEAR_DUPLICATE_PHASH_BITS; b++) hash ^= 1n << BigInt(rng.int(64));
        phashes[i] = hash.toString(16).padStart(16, '0');
      }
      duplicates.push(i, source);
    } else {
      const c = rng.int(nCentres);
      centreOf[i] = c;
      const from = c * d;
      const s = sigma[c]!;
      for (let x = 0; x < d; x++) vectors[base + x] = centres[from + x]! + s * rng.gaussian();
      phashes[i] = rng.hex64();
    }
    normaliseRow(vectors, i, d);
  }
  return { vectors, phashes, centres: nCentres, duplicates: Int32Array.from(duplicates), exactCopies, isolated: Int32Array.from(isolated), centreOf };
}

