/**
 * The top `dims` principal axes of n rows of d (already centred) by orthogonal iteration on the covariance of an
 * evenly spaced sample of at most `sample` rows: returns dims × d, unit and orthogonal, largest variance first.
 * Cost: sample · d² for the covariance, iterations · d² · dims after; no I/O, deterministic.
 */
export function principalAxes(rows: Float32Array, d: number, dims: number, sample = 20_000, iterations = 40): Float32Array {
  const n = rows.length / d;
  const step = Math.max(1, Math.floor(n / sample));
  const cov = new Float64Array(d * d);
  const row = new Float64Array(d);
  let taken = 0;
  for (let i = 0; i < n; i += step) {
    for (let x = 0; x < d; x++) row[x] = rows[i * d + x]!;
    for (let a = 0; a < d; a++) {
      const ra = row[a]!;
      if (ra === 0) continue;
      const base = a * d;
      for (let b = a; b < d; b++) cov[base + b] = cov[base + b]! + ra * row[b]!;
    }
    taken++;
  }
  for (let a = 0; a < d; a++) for (let b = a; b < d; b++) cov[b * d + a] = cov[a * d + b] = cov[a * d + b]! / Math.max(1, taken);
  // Start from the unit axes (deterministic), then Q ← orth(C · Q) until it settles.
  let q = new Float64Array(dims * d);
  for (let j = 0; j < dims; j++) q[j * d + ((j * 7919) % d)] = 1;
  for (let it = 0; it < iterations; it++) {
    const z = new Float64Array(dims * d);
    for (let j = 0; j < dims; j++) {
      for (let a = 0; a < d; a++) {
        let s = 0;
        const base = a * d;
        for (let b = 0; b < d; b++) s += cov[base + b]! * q[j * d + b]!;
        z[j * d + a] = s;
      }
    }
    orthonormalise(z, dims, d);
    q = z;
  }
  // Orthogonal iteration converges to the span; order the axes by their variance (Rayleigh quotient).
  const variance = Array.from({ length: dims }, (_, j) => {
    let s = 0;
    for (let a = 0; a < d; a++) {
      let t = 0;
      for (let b = 0; b < d; b++) t += cov[a * d + b]! * q[j * d + b]!;
      s += q[j * d + a]! * t;
    }
    return s;
  });
  const order = variance.map((v, j) => [v, j] as const).sort((x, y) => y[0] - x[0]);
  const out = new Float32Array(dims * d);
  order.forEach(([, j], r) => {
    for (let a = 0; a < d; a++) out[r * d + a] = q[j * d + a]!;
  });
  return out;
}

/** Modified Gram–Schmidt on the rows, in place (a row that vanishes becomes a unit axis orthogonal enough to go on). */
function orthonormalise(m: Float64Array, rowsCount: number, d: number): void {
  for (let j = 0; j < rowsCount; j++) {
    for (let k = 0; k < j; k++) {
      let dot = 0;
      for (let x = 0; x < d; x++) dot += m[j * d + x]! * m[k * d + x]!;
      for (let x = 0; x < d; x++) m[j * d + x] = m[j * d + x]! - dot * m[k * d + x]!;
    }
    let norm = 0;
    for (let x = 0; x < d; x++) norm += m[j * d + x]! ** 2;
    norm = Math.sqrt(norm);
    if (norm < 1e-12) {
      m[j * d + (j % d)] = 1;
      norm = 1;
    }
    for (let x = 0; x < d; x++) m[j * d + x] = m[j * d + x]! / norm;
  }
}
