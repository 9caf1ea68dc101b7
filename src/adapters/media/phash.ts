/** Side of the grayscale square the hash is computed from. */
export const PHASH_INPUT_SIZE = 32;
const HASH_SIDE = 8;

// COSINES[u][x] = cos(π·(2x+1)·u / 2N): the DCT-II basis, only for the 8 lowest frequencies we keep.
const COSINES: Float64Array[] = Array.from({ length: HASH_SIDE }, (_, u) =>
  Float64Array.from({ length: PHASH_INPUT_SIZE }, (_, x) => Math.cos((Math.PI * (2 * x + 1) * u) / (2 * PHASH_INPUT_SIZE))),
);

/**
 * 64-bit DCT perceptual hash of a 32×32 grayscale image p(y,x) (row-major, one byte a pixel).
 *
 * C(u,v) = Σy Σx p(y,x)·cos(π(2y+1)u/64)·cos(π(2x+1)v/64) for u,v in 0..7 (unnormalised DCT-II);
 * m = median of the 63 coefficients other than C(0,0); bit (8u+v), most significant first, is C(u,v) > m.
 */
export function phashFromGray(pixels: Uint8Array): string {
  const n = PHASH_INPUT_SIZE;
  if (pixels.length !== n * n) throw new Error(`phash needs ${n}×${n} grayscale pixels, got ${pixels.length} bytes`);

  // Separable transform: rows first (keeping 8 horizontal frequencies), then columns.
  const rows = new Float64Array(n * HASH_SIDE);
  for (let y = 0; y < n; y++) {
    for (let v = 0; v < HASH_SIDE; v++) {
      const basis = COSINES[v]!;
      let sum = 0;
      for (let x = 0; x < n; x++) sum += pixels[y * n + x]! * basis[x]!;
      rows[y * HASH_SIDE + v] = sum;
    }
  }
  const coefficients = new Float64Array(HASH_SIDE * HASH_SIDE);
  for (let u = 0; u < HASH_SIDE; u++) {
    const basis = COSINES[u]!;
    for (let v = 0; v < HASH_SIDE; v++) {
      let sum = 0;
      for (let y = 0; y < n; y++) sum += rows[y * HASH_SIDE + v]! * basis[y]!;
      coefficients[u * HASH_SIDE + v] = sum;
    }
  }

  const median = medianOf(coefficients.subarray(1));
  let hash = 0n;
  for (const coefficient of coefficients) hash = (hash << 1n) | (coefficient > median ? 1n : 0n);
  return hash.toString(16).padStart(16, '0');
}

/** Number of differing bits between two 16-hex-digit hashes. */
export function hammingDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/i.test(a) || !/^[0-9a-f]{16}$/i.test(b)) {
    throw new TypeError('hammingDistance expects two 64-bit hashes as 16 hex characters');
  }
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff > 0n) {
    count += Number(diff & 1n);
    diff >>= 1n;
  }
  return count;
}

function medianOf(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
