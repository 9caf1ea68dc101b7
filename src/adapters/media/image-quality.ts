export type ImageFlag = 'blurry' | 'dark' | 'bright' | 'grayscale' | 'low_information';

/** Long side of the grayscale downscale that blur and brightness are measured on, so scores compare across sizes. */
export const QUALITY_SIDE = 512;

/**
 * Flag thresholds, calibrated on the fixture photos (test/media/image.test.ts checks them): sharp photos score a
 * Laplacian variance of 390–1420, a gaussian blur of sigma 2 drops them to 11–51; daylight photos have a mean luma
 * of 119–162, the same photos scaled by 0.1 about 13, washed out to 0.2·v+210 about 235.
 */
export const QUALITY_THRESHOLDS = { blurryBelow: 100, darkBelow: 40, brightAbove: 215 } as const;

/**
 * Thresholds of the issues docs/curation.md explains, calibrated on the fixture photos (test/media/image-issues.test.ts):
 * the colour photos have a colour spread (measureContent) of 77–226, darkened (0.1·v) or washed out (0.2·v+210) 40–232,
 * their grayscale copies 0, as one channel or as RGB JPEGs; the photos have a gray-histogram entropy of 6.9–7.6 bits,
 * those edits 3.6–5.0, a flat colour 0, a page of black text on white 0.2. Aspect ratio and size are read from the
 * original's width and height.
 */
export const ISSUE_THRESHOLDS = {
  grayscaleSpreadAtMost: 12,
  lowInformationEntropyBelow: 2.5,
  oddAspectRatioAbove: 2.5,
  /** Odd size: area below this many pixels, or below `tinyShare` of the dataset's median area, or above `hugeMultiple` of it. */
  tinyAreaBelow: 64 * 64,
  tinyShare: 1 / 16,
  hugeMultiple: 16,
} as const;

export interface ImageQuality {
  blur: number;
  brightness: number;
  flags: ImageFlag[];
}

/** Blur (variance of the 4-neighbour Laplacian) and brightness (mean luma) of one grayscale raw buffer. */
export function measureQuality(gray: Uint8Array, width: number, height: number): ImageQuality {
  if (gray.length !== width * height) throw new Error(`expected ${width}×${height} grayscale pixels, got ${gray.length} bytes`);
  const n = gray.length;
  let lumaSum = 0;
  for (let i = 0; i < n; i++) lumaSum += gray[i]!;
  const brightness = n > 0 ? lumaSum / n : 0;

  // Integer sums, exact in doubles (< 2^53), one row at a time: ~2x faster than indexing by (x, y).
  let sum = 0;
  let sumOfSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let i = y * width + 1, end = y * width + width - 1; i < end; i++) {
      const laplacian = gray[i - width]! + gray[i + width]! + gray[i - 1]! + gray[i + 1]! - 4 * gray[i]!;
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
    }
  }
  const count = width > 2 && height > 2 ? (width - 2) * (height - 2) : 0;
  const blur = count > 0 ? Math.max(0, sumOfSquares / count - (sum / count) ** 2) : 0;
  return { blur, brightness, flags: flagsFor(blur, brightness) };
}

export interface ImageContent {
  /** 99th percentile over the pixels of max(R, G, B) − min(R, G, B), relative to the brightest channel's (relativeSpread), 0..255: 0 for a gray image. */
  colorSpread: number;
  /** Shannon entropy of the gray histogram in bits, 0..8: 0 for one flat colour. */
  entropy: number;
}

/**
 * Colour spread (of interleaved 8-bit pixels: one or two channels are gray) and gray entropy of the analysed image;
 * alpha is ignored for the spread. Two histograms, one pass each: about 1 ms at 512×384.
 */
export function measureContent(pixels: Uint8Array, gray: Uint8Array, channels: number): ImageContent {
  const lumas = new Uint32Array(256);
  const n = gray.length;
  for (let i = 0; i < n; i++) lumas[gray[i]!]!++;
  const range = percentile(lumas, Math.ceil(n * 0.99)) - percentile(lumas, Math.ceil(n * 0.01));
  return { colorSpread: channels >= 3 && n > 0 ? relativeSpread(pixels, channels, range) : 0, entropy: entropyOf(lumas, n) };
}

export function contentFlags(content: ImageContent): ImageFlag[] {
  const flags: ImageFlag[] = [];
  if (content.colorSpread <= ISSUE_THRESHOLDS.grayscaleSpreadAtMost) flags.push('grayscale');
  if (content.entropy < ISSUE_THRESHOLDS.lowInformationEntropyBelow) flags.push('low_information');
  return flags;
}

/**
 * The 99th percentile of the per-pixel channel spread, scaled by 255 over the luma range (1st to 99th percentile,
 * floored at 32): a darkened or washed-out colour photo keeps its score, and the noise of a near-flat one is not colour.
 */
function relativeSpread(pixels: Uint8Array, channels: number, lumaRange: number): number {
  const spreads = new Uint32Array(256);
  for (let p = 0; p < pixels.length; p += channels) {
    const r = pixels[p]!;
    const g = pixels[p + 1]!;
    const b = pixels[p + 2]!;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    spreads[max - min]!++;
  }
  const spread = percentile(spreads, Math.ceil((pixels.length / channels) * 0.99));
  return Math.min(255, (spread * 255) / Math.max(32, lumaRange));
}

/** The smallest value with at least `rank` of the histogram's counts at or below it. */
function percentile(histogram: Uint32Array, rank: number): number {
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v]!;
    if (seen >= rank) return v;
  }
  return histogram.length - 1;
}

function entropyOf(histogram: Uint32Array, n: number): number {
  let entropy = 0;
  for (const count of histogram) {
    if (count === 0) continue;
    const p = count / n;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function flagsFor(blur: number, brightness: number): ImageFlag[] {
  const dark = brightness < QUALITY_THRESHOLDS.darkBelow;
  const bright = brightness > QUALITY_THRESHOLDS.brightAbove;
  // Laplacian variance scales with contrast squared, so an under- or overexposed photo scores low however sharp it is.
  const blurry = blur < QUALITY_THRESHOLDS.blurryBelow && !dark && !bright;
  const flags: ImageFlag[] = [];
  if (blurry) flags.push('blurry');
  if (dark) flags.push('dark');
  if (bright) flags.push('bright');
  return flags;
}
