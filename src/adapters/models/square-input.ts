import type { RgbImage } from './embedder.js';

/**
 * An RGB image as the CenterNet embedder's `side`² float input (NHWC, values 0..255), made the way the tfjs path's
 * `preprocess` makes it so both runtimes embed alike: whole `factor`² blocks averaged first where the image is at
 * least twice the side (bilinear alone aliases on large downscales), then bilinear with half-pixel centres.
 */
export function squareInput(rgb: RgbImage, side: number): Float32Array {
  if (rgb.width === side && rgb.height === side) return Float32Array.from(rgb.data);
  const factor = Math.floor(Math.min(rgb.height, rgb.width) / side);
  const image = factor >= 2 ? blockAverage(rgb, factor) : { data: Float32Array.from(rgb.data), width: rgb.width, height: rgb.height };
  if (image.width === side && image.height === side) return image.data;
  return bilinear(image, side);
}

interface FloatRgb {
  data: Float32Array;
  width: number;
  height: number;
}

/** Average pooling with a `factor`² window and stride, partial blocks at the edges dropped (tf's 'valid'). */
function blockAverage(rgb: RgbImage, factor: number): FloatRgb {
  const width = Math.floor(rgb.width / factor);
  const height = Math.floor(rgb.height / factor);
  const out = new Float32Array(width * height * 3);
  const sums = new Float64Array(width * 3);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      const row = (y * factor + dy) * rgb.width * 3;
      for (let x = 0; x < width; x++) {
        for (let dx = 0; dx < factor; dx++) {
          const p = row + (x * factor + dx) * 3;
          sums[x * 3] = sums[x * 3]! + rgb.data[p]!;
          sums[x * 3 + 1] = sums[x * 3 + 1]! + rgb.data[p + 1]!;
          sums[x * 3 + 2] = sums[x * 3 + 2]! + rgb.data[p + 2]!;
        }
      }
    }
    for (let i = 0; i < width * 3; i++) out[y * width * 3 + i] = sums[i]! / area;
  }
  return { data: out, width, height };
}

/** tf.image.resizeBilinear(alignCorners false, halfPixelCenters true) to side × side. */
function bilinear(image: FloatRgb, side: number): Float32Array {
  const out = new Float32Array(side * side * 3);
  const xs = axis(image.width, side);
  const ys = axis(image.height, side);
  for (let y = 0; y < side; y++) {
    const top = ys.low[y]! * image.width;
    const bottom = ys.high[y]! * image.width;
    const fy = ys.frac[y]!;
    for (let x = 0; x < side; x++) {
      const left = xs.low[x]!;
      const right = xs.high[x]!;
      const fx = xs.frac[x]!;
      for (let c = 0; c < 3; c++) {
        const tl = image.data[(top + left) * 3 + c]!;
        const tr = image.data[(top + right) * 3 + c]!;
        const bl = image.data[(bottom + left) * 3 + c]!;
        const br = image.data[(bottom + right) * 3 + c]!;
        const upper = tl + (tr - tl) * fx;
        const lower = bl + (br - bl) * fx;
        out[(y * side + x) * 3 + c] = upper + (lower - upper) * fy;
      }
    }
  }
  return out;
}

/** Source pixels and weights along one axis, as tfjs computes them (the low index clamped at 0, the high at the end). */
function axis(from: number, to: number): { low: Int32Array; high: Int32Array; frac: Float32Array } {
  const scale = from / to;
  const low = new Int32Array(to);
  const high = new Int32Array(to);
  const frac = new Float32Array(to);
  for (let i = 0; i < to; i++) {
    const source = (i + 0.5) * scale - 0.5;
    low[i] = Math.max(0, Math.floor(source));
    high[i] = Math.min(from - 1, Math.ceil(source));
    frac[i] = source - low[i]!;
  }
  return { low, high, frac };
}
