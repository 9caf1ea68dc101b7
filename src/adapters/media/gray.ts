/**
 * Grayscale and area downscaling in JavaScript, for the small images analysis measures. sharp does both, but each
 * call on raw pixels costs more than the work here (CPU on 512×384: sharp's grayscale 5.2 ms, its 32×32 resize 2.8 ms,
 * an empty raw round trip 0.4 ms; these loops about 2 ms each).
 */

// Luma as libvips computes it for sharp's grayscale(): Rec. 709 weights in linear light, back to sRGB. Each
// channel's share of linear luma is a table of integers (of 2^16), so a pixel is three lookups and two adds.
const LINEAR_STEPS = 65535;
const linear = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
const share = (weight: number) => Uint32Array.from({ length: 256 }, (_, v) => Math.round(weight * linear(v) * LINEAR_STEPS));
const [RED, GREEN, BLUE] = [share(0.2126), share(0.7152), share(0.0722)];
const TO_SRGB = Uint8Array.from({ length: LINEAR_STEPS + 3 }, (_, i) => {
  const y = Math.min(1, i / LINEAR_STEPS);
  return Math.round(255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055));
});

/** One byte of luma per pixel of interleaved 8-bit gray, gray+alpha, RGB or RGBA pixels, alpha flattened on white. */
export function grayscale(pixels: Uint8Array, width: number, height: number, channels: number): Uint8Array {
  const n = width * height;
  if (pixels.length !== n * channels) throw new Error(`expected ${width}×${height}×${channels} bytes, got ${pixels.length}`);
  const gray = new Uint8Array(n);
  if (channels === 3) {
    // The common case without the alpha and gray branches: about twice as fast.
    for (let i = 0, p = 0; i < n; i++, p += 3) gray[i] = TO_SRGB[RED[pixels[p]!]! + GREEN[pixels[p + 1]!]! + BLUE[pixels[p + 2]!]!]!;
    return gray;
  }
  const hasAlpha = channels === 2 || channels === 4;
  const onWhite = (value: number, alpha: number) => (value * alpha + 255 * (255 - alpha) + 127) / 255 | 0;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const alpha = hasAlpha ? pixels[p + channels - 1]! : 255;
    if (channels <= 2) {
      gray[i] = alpha === 255 ? pixels[p]! : onWhite(pixels[p]!, alpha);
      continue;
    }
    let r = pixels[p]!;
    let g = pixels[p + 1]!;
    let b = pixels[p + 2]!;
    if (alpha !== 255) {
      r = onWhite(r, alpha);
      g = onWhite(g, alpha);
      b = onWhite(b, alpha);
    }
    gray[i] = TO_SRGB[RED[r]! + GREEN[g]! + BLUE[b]!]!;
  }
  return gray;
}

/**
 * A one-channel image squeezed to `toWidth`×`toHeight` (aspect not kept) by area averaging: each output pixel is
 * the mean of the input area it covers, partial pixels weighted by their overlap. Downscaling only.
 */
export function areaResize(gray: Uint8Array, width: number, height: number, toWidth: number, toHeight: number): Uint8Array {
  if (toWidth > width || toHeight > height) throw new RangeError(`areaResize only shrinks (${width}×${height} to ${toWidth}×${toHeight})`);
  const columns = spans(width, toWidth);
  const rows = spans(height, toHeight);
  const line = new Float64Array(toWidth + 1);
  const sums = new Float64Array((toHeight + 1) * toWidth);
  const { cell: columnCell, first: columnFirst } = columns;
  for (let y = 0; y < height; y++) {
    line.fill(0);
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const value = gray[row + x]!;
      const cell = columnCell[x]!;
      const share = value * columnFirst[x]!;
      line[cell] = line[cell]! + share;
      line[cell + 1] = line[cell + 1]! + value - share;
    }
    const base = rows.cell[y]! * toWidth;
    const first = rows.first[y]!;
    for (let c = 0; c < toWidth; c++) {
      const share = line[c]! * first;
      sums[base + c] = sums[base + c]! + share;
      sums[base + toWidth + c] = sums[base + toWidth + c]! + line[c]! - share;
    }
  }
  const area = (width / toWidth) * (height / toHeight);
  return Uint8Array.from(sums.subarray(0, toWidth * toHeight), (sum) => Math.min(255, Math.round(sum / area)));
}

/** For each input index: the output cell it starts in, and the fraction of it inside that cell (the rest is in the next). */
function spans(from: number, to: number): { cell: Int32Array; first: Float64Array } {
  const scale = to / from;
  const cell = new Int32Array(from);
  const first = new Float64Array(from);
  for (let i = 0; i < from; i++) {
    const start = i * scale;
    cell[i] = Math.floor(start);
    first[i] = Math.min(1, (cell[i]! + 1 - start) / scale);
  }
  return { cell, first };
}
