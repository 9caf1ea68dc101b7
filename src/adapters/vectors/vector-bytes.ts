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

type ResizableArrayBufferConstructor = new (bytes: number, options: { maxByteLength: number }) => ArrayBuffer;

/**
 * `length` floats in a resizable buffer: the index build (quantizedVectors) shrinks it as it turns the rows into
 * bytes, so the memory of the rows done is given back at once instead of at the end (ES2024; Node ≥ 20).
 */
export function resizableFloats(length: number): Float32Array {
  const bytes = length * 4;
  return new Float32Array(new (ArrayBuffer as unknown as ResizableArrayBufferConstructor)(bytes, { maxByteLength: bytes }));
}
