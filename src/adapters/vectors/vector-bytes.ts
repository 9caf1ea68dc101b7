/** Vectors are stored as little-endian float32 bytes (bytea): compact, and read back without parsing. */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** Copies `bytes` (float32 LE) into `target` at `offset` floats; returns the number of floats copied. */
export function bytesInto(bytes: Uint8Array, target: Float32Array, offset: number): number {
  const count = bytes.byteLength / 4;
  new Uint8Array(target.buffer, target.byteOffset + offset * 4, bytes.byteLength).set(bytes);
  return count;
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.byteLength / 4);
  bytesInto(bytes, out, 0);
  return out;
}
