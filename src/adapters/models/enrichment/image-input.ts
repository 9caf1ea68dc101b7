import sharp from 'sharp';
import type { RgbImage } from '../embedder.js';
import type { Box } from './types.js';

/** The bytes given to `enrich` are not an image this service can decode. */
export class EnrichmentImageError extends Error {
  override name = 'EnrichmentImageError';
}

/** Larger inputs are shrunk to this side first (previews are ≤ 1024 px already); boxes are mapped back. */
const MAX_SIDE = 2048;

export interface DecodedInput {
  /** Pixels the models see (EXIF orientation applied, maybe shrunk). */
  rgb: RgbImage;
  /** Size of the input image in its display orientation; boxes are reported in these pixels. */
  width: number;
  height: number;
  /** rgb pixels → input pixels. */
  scale: number;
  /** What tesseract reads: the original bytes when they are JPEG/PNG needing no rotation or shrink, else a PNG of `rgb`. */
  encoded(): Promise<Buffer>;
}

export async function decodeInput(bytes: Uint8Array): Promise<DecodedInput> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) throw new EnrichmentImageError('the image is empty');
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const meta = await sharp(input).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    const width = swap ? meta.height : meta.width;
    const height = swap ? meta.width : meta.height;
    if (!width || !height) throw new Error('no dimensions');
    const scale = Math.max(1, Math.max(width, height) / MAX_SIDE);
    let pipeline = sharp(input).rotate();
    if (scale > 1) pipeline = pipeline.resize(Math.round(width / scale), Math.round(height / scale), { fit: 'fill' });
    const { data, info } = await pipeline.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`${info.channels} channels after conversion`);
    const rgb = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
    // Tesseract's leptonica reads JPEG and PNG; anything else (WebP, HEIF, rotated or shrunk input) goes as PNG.
    const untouched = scale === 1 && (meta.orientation ?? 1) === 1 && ['jpeg', 'png'].includes(meta.format ?? '');
    return {
      rgb,
      width,
      height,
      scale: width / info.width,
      encoded: async () => (untouched ? input : sharp(Buffer.from(rgb.data), { raw: { width: rgb.width, height: rgb.height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()),
    };
  } catch (err) {
    if (err instanceof EnrichmentImageError) throw err;
    throw new EnrichmentImageError(`cannot decode the image: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Copies the pixels inside `box` (rgb pixels, clamped to the image, at least 1×1). */
export function cropRgb(rgb: RgbImage, box: Box): RgbImage {
  const x0 = Math.min(rgb.width - 1, Math.max(0, Math.floor(box.x)));
  const y0 = Math.min(rgb.height - 1, Math.max(0, Math.floor(box.y)));
  const x1 = Math.max(x0 + 1, Math.min(rgb.width, Math.ceil(box.x + box.width)));
  const y1 = Math.max(y0 + 1, Math.min(rgb.height, Math.ceil(box.y + box.height)));
  const width = x1 - x0;
  const height = y1 - y0;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * rgb.width + x0) * 3;
    data.set(rgb.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { data, width, height };
}

export function scaleBox(box: Box, scale: number): Box {
  if (scale === 1) return box;
  return { x: Math.round(box.x * scale), y: Math.round(box.y * scale), width: Math.round(box.width * scale), height: Math.round(box.height * scale) };
}
