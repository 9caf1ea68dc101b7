export type ImageFlag = 'blurry' | 'dark' | 'bright';

/** Long side of the grayscale downscale that blur and brightness are measured on, so scores compare across sizes. */
export const QUALITY_SIDE = 512;

/**
 * Flag thresholds, calibrated on the fixture photos (test/media/image.test.ts checks them): sharp photos score a
 * Laplacian variance of 390–1420, a gaussian blur of sigma 2 drops them to 11–51; daylight photos have a mean luma
 * of 119–162, the same photos scaled by 0.1 about 13, washed out to 0.2·v+210 about 235.
 */
export const QUALITY_THRESHOLDS = { blurryBelow: 100, darkBelow: 40, brightAbove: 215 } as const;

export interface ImageQuality {
  blur: number;
  brightness: number;
  flags: ImageFlag[];
}

/** Blur (variance of the 4-neighbour Laplacian) and brightness (mean luma) of one grayscale raw buffer. */
export function measureQuality(gray: Uint8Array, width: number, height: number): ImageQuality {
  if (gray.length !== width * height) throw new Error(`expected ${width}×${height} grayscale pixels, got ${gray.length} bytes`);
  let lumaSum = 0;
  for (const value of gray) lumaSum += value;
  const brightness = gray.length > 0 ? lumaSum / gray.length : 0;

  let sum = 0;
  let sumOfSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const laplacian = gray[i - width]! + gray[i + width]! + gray[i - 1]! + gray[i + 1]! - 4 * gray[i]!;
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
      count++;
    }
  }
  const blur = count > 0 ? Math.max(0, sumOfSquares / count - (sum / count) ** 2) : 0;
  return { blur, brightness, flags: flagsFor(blur, brightness) };
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
