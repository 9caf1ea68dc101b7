/** Raw interleaved RGB pixels (3 bytes per pixel, row-major, no padding). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** An image embedder: maps an RGB image to a fixed-length, L2-normalised vector. */
export interface Embedder {
  /** Model identifier, e.g. "centernet-mbv3-gap". */
  readonly name: string;
  /** Version string; changes whenever vectors stop being comparable with earlier ones. */
  readonly version: string;
  /** Side of the square RGB input the model works at; callers may resize to it beforehand. */
  readonly inputSize: number;
  /** What runs the model ('onnxruntime' or 'tfjs-wasm'); runtimes of one model and version give the same vectors. */
  readonly runtime: string;
  /** Length of every vector returned by `embed`. */
  readonly dimensions: number;
  /** Embeds one image; the result has unit L2 norm (or is all zeros for a degenerate input). */
  embed(rgb: RgbImage): Promise<Float32Array>;
  /** Releases model weights; the embedder must not be used afterwards. */
  close(): Promise<void>;
}

/** Checks that `rgb` is a well-formed RGB buffer; throws a RangeError otherwise. */
export function assertRgbImage(rgb: RgbImage): void {
  const { data, width, height } = rgb;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RangeError(`invalid image size ${width}x${height}`);
  }
  if (data.length !== width * height * 3) {
    throw new RangeError(`expected ${width * height * 3} bytes of RGB for ${width}x${height}, got ${data.length}`);
  }
}

/** L2-normalises `v` in place and returns it (all-zero vectors are left as they are). */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/**
 * An Embedder around one loaded model: `run` gets checked RGB and returns the raw features, which come back
 * L2-normalised; after close() every embed rejects.
 */
export function embedderOf(
  about: Pick<Embedder, 'name' | 'version' | 'runtime' | 'dimensions' | 'inputSize'>,
  run: (rgb: RgbImage) => Promise<Float32Array>,
  release: () => void | Promise<void>,
): Embedder {
  let closed = false;
  return {
    ...about,
    async embed(rgb: RgbImage): Promise<Float32Array> {
      if (closed) throw new Error('embedder is closed');
      assertRgbImage(rgb);
      return l2normalize(await run(rgb));
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await release();
    },
  };
}
