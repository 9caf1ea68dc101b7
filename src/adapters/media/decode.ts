import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp, { type Channels, type Metadata, type OutputInfo, type Sharp } from 'sharp';

export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

/** Pixels of an image, already oriented and downscaled, with what was learned about the original on the way. */
export interface DecodedImage {
  /** Interleaved 8-bit sRGB(A) or gray(A) pixels, long side at most the requested maximum. */
  pixels: Buffer;
  raw: { width: number; height: number; channels: Channels };
  /** Display size of the original, after orientation. */
  width: number;
  height: number;
  exif: Buffer | undefined;
  /** A baseline-viewable JPEG already within the requested size and upright: it can be shown as it is. */
  showableAsIs: boolean;
}

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

type HeicDecode = (input: { buffer: Uint8Array }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
type BmpDecode = (input: Buffer) => { width: number; height: number; bitPP: number; data: Buffer };

const require = createRequire(import.meta.url);
// libheif's WebAssembly bundle is large, so it loads on the first HEIC rather than at import.
let heicDecode: HeicDecode | undefined;

export const SHARP_FORMATS = new Set(['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif']);
export const IMAGE_FORMATS = new Set([...SHARP_FORMATS, 'heic', 'bmp']);
export const MAX_INPUT_PIXELS = 268_402_689; // sharp's own default limit, applied to the JS decoders too

/**
 * Decodes an image once into oriented pixels whose long side is at most `maxSide` (never upscaled), or at most
 * `showableSide` when the original can serve as its own preview: then nothing needs more pixels than that, and what
 * is made from them starts from a quarter of the pixels (CPU per 1024×768 JPEG: thumbnail 15 → 7 ms, gray image 22 → 2–3 ms).
 * The prebuilt sharp has no HEVC or BMP decoder, so HEIC goes through libheif (WebAssembly) and BMP through bmp-js.
 */
export async function decodeImage(filePath: string, format: string, maxSide: number, signal?: AbortSignal, showableSide = maxSide): Promise<DecodedImage> {
  if (!IMAGE_FORMATS.has(format)) throw new ImageDecodeError(`unsupported image format: ${format}`);
  if (SHARP_FORMATS.has(format)) {
    const { size } = await stat(filePath); // a missing file is an I/O error for the caller, not a bad image
    return decodeWithSharp(filePath, format, { maxSide, showableSide }, size);
  }
  const file = await readFile(filePath, { signal });
  const header = format === 'heic' ? await heifHeader(file) : undefined;
  signal?.throwIfAborted();
  const rgba = await decoding(format, () => (format === 'heic' ? decodeHeic(file, header) : decodeBmp(file)));
  signal?.throwIfAborted();
  const { data, info } = await decoding(format, () =>
    fitInside(sharp(rgba.data, { raw: { width: rgba.width, height: rgba.height, channels: 4 } }), maxSide, isOpaque(rgba.data)),
  );
  return { pixels: data, raw: rawOf(info), width: rgba.width, height: rgba.height, exif: header?.exif, showableAsIs: false };
}

/** JPEGs at most this large (bytes) may serve as their own preview; bigger ones carry more than pixels worth showing. */
const SHOWABLE_MAX_BYTES = 1_500_000;

async function decodeWithSharp(filePath: string, format: string, sides: { maxSide: number; showableSide: number }, size: number): Promise<DecodedImage> {
  return decoding(format, async () => {
    const image = sharp(filePath, { autoOrient: true, pages: 1 });
    const metadata = await image.metadata();
    const showableAsIs =
      format === 'jpeg' &&
      (metadata.orientation ?? 1) === 1 &&
      metadata.space !== 'cmyk' &&
      Math.max(metadata.width, metadata.height) <= sides.maxSide &&
      size <= SHOWABLE_MAX_BYTES;
    const { data, info } = await fitInside(image, showableAsIs ? sides.showableSide : sides.maxSide, false);
    return { pixels: data, raw: rawOf(info), width: metadata.autoOrient.width, height: metadata.autoOrient.height, exif: metadata.exif, showableAsIs };
  });
}

function fitInside(image: Sharp, maxSide: number, dropAlpha: boolean) {
  const resized = image.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  return (dropAlpha ? resized.removeAlpha() : resized).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
}

function rawOf(info: OutputInfo): DecodedImage['raw'] {
  return { width: info.width, height: info.height, channels: info.channels };
}

async function decodeHeic(file: Buffer, header: Metadata | undefined): Promise<Rgba> {
  if (header) checkSize(header.width, header.height);
  heicDecode ??= require('heic-decode') as HeicDecode;
  const { width, height, data } = await heicDecode({ buffer: file });
  checkSize(width, height);
  return { width, height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** libvips reads a HEIF container's size and EXIF without the HEVC decoder, so bombs are refused before decoding. */
async function heifHeader(file: Buffer): Promise<Metadata | undefined> {
  try {
    return await sharp(file).metadata();
  } catch {
    return undefined; // libheif gets the final word on whether the file decodes
  }
}

/** bmp-js yields ABGR (alpha 0 for formats without alpha); rewritten in place as RGBA. */
function decodeBmp(file: Buffer): Rgba {
  if (file.length >= 26) checkSize(file.readInt32LE(18), Math.abs(file.readInt32LE(22)));
  const bmp = (require('bmp-js') as { decode: BmpDecode }).decode(file);
  const data = bmp.data;
  const hasAlpha = bmp.bitPP === 32 && anyAlpha(data);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = hasAlpha ? data[i]! : 255;
    const blue = data[i + 1]!;
    data[i] = data[i + 3]!;
    data[i + 1] = data[i + 2]!;
    data[i + 2] = blue;
    data[i + 3] = alpha;
  }
  return { width: bmp.width, height: bmp.height, data };
}

/** 32-bit BMPs usually leave the fourth byte zero as padding; only a non-zero one means real alpha. */
function anyAlpha(abgr: Buffer): boolean {
  for (let i = 0; i < abgr.length; i += 4) if (abgr[i] !== 0) return true;
  return false;
}

function checkSize(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new ImageDecodeError(`invalid dimensions ${width}×${height}`);
  if (width * height > MAX_INPUT_PIXELS) throw new ImageDecodeError(`image too large: ${width}×${height} pixels`);
}

function isOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/** Runs one decoding step, turning whatever the decoder throws into an ImageDecodeError with a one-line reason. */
async function decoding<T>(format: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0]?.trim() || 'unknown error';
    throw new ImageDecodeError(`cannot decode ${format} image: ${reason}`, { cause: err });
  }
}
