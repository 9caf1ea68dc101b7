import type { io } from '@tensorflow/tfjs';

/** A weight of a tfjs graph, dequantized: float32 for floats, int32 for integers. */
export interface TfWeight {
  shape: number[];
  data: Float32Array | Int32Array;
}

/**
 * Every weight of a tfjs artifacts bundle by name, decoded the way tfjs's loader does: float16 and affine
 * uint8/uint16 quantization become float32 (`q × scale + min`).
 */
export function decodeTfWeights(specs: io.WeightsManifestEntry[], bytes: ArrayBuffer): Map<string, TfWeight> {
  const weights = new Map<string, TfWeight>();
  let offset = 0;
  for (const spec of specs) {
    const count = spec.shape.reduce((a, b) => a * b, 1);
    const q = spec.quantization;
    let data: Float32Array | Int32Array;
    if (!q) {
      if (spec.dtype === 'float32') data = new Float32Array(bytes.slice(offset, offset + 4 * count));
      else if (spec.dtype === 'int32') data = new Int32Array(bytes.slice(offset, offset + 4 * count));
      else throw new Error(`unsupported dtype ${spec.dtype} of weight ${spec.name}`);
      offset += 4 * count;
    } else if (q.dtype === 'float16') {
      data = halfToFloat(new Uint16Array(bytes.slice(offset, offset + 2 * count)));
      offset += 2 * count;
    } else if ((q.dtype === 'uint8' || q.dtype === 'uint16') && q.scale !== undefined && q.min !== undefined) {
      const size = q.dtype === 'uint8' ? 1 : 2;
      const raw = q.dtype === 'uint8' ? new Uint8Array(bytes, offset, count) : new Uint16Array(bytes.slice(offset, offset + 2 * count));
      const floats = new Float32Array(count);
      for (let i = 0; i < count; i++) floats[i] = raw[i]! * q.scale + q.min;
      data = spec.dtype === 'int32' ? Int32Array.from(floats, Math.round) : floats;
      offset += size * count;
    } else {
      throw new Error(`unsupported quantization ${q.dtype} of weight ${spec.name}`);
    }
    weights.set(spec.name, { shape: spec.shape, data });
  }
  if (offset !== bytes.byteLength) throw new Error(`weights are ${bytes.byteLength} bytes, the manifest says ${offset}`);
  return weights;
}

/** IEEE half to single precision, bit for bit (subnormals, infinities and NaN included). */
function halfToFloat(halves: Uint16Array): Float32Array {
  const bits = new Uint32Array(halves.length);
  for (let i = 0; i < halves.length; i++) {
    const h = halves[i]!;
    const sign = (h & 0x8000) << 16;
    const exponent = (h >> 10) & 0x1f;
    let mantissa = h & 0x3ff;
    if (exponent === 0x1f) bits[i] = sign | 0x7f800000 | (mantissa << 13);
    else if (exponent !== 0) bits[i] = sign | ((exponent + 112) << 23) | (mantissa << 13);
    else if (mantissa === 0) bits[i] = sign;
    else {
      let e = 113;
      while ((mantissa & 0x400) === 0) {
        mantissa <<= 1;
        e--;
      }
      bits[i] = sign | (e << 23) | ((mantissa & 0x3ff) << 13);
    }
  }
  return new Float32Array(bits.buffer);
}
