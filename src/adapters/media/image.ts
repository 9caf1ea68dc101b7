import { createHash } from 'node:crypto';
import sharp, { type ResizeOptions, type Sharp } from 'sharp';
import type { Embedder } from '../models/embedder.js';
import { type DecodedImage, SHARP_FORMATS, decodeImage } from './decode.js';
import { parseExif, type ImageExif } from './exif.js';
import { areaResize, grayscale } from './gray.js';
import { contentFlags, measureContent, measureQuality, QUALITY_SIDE, type ImageFlag } from './image-quality.js';
import { PHASH_INPUT_SIZE, phashFromGray } from './phash.js';

import { ImageDecodeError } from './decode.js';

export { ImageDecodeError };
export { hammingDistance } from './phash.js';
export { ISSUE_THRESHOLDS, QUALITY_THRESHOLDS } from './image-quality.js';
export type { ImageExif } from './exif.js';
export type { ImageFlag } from './image-quality.js';

export interface ImageAnalysis {
  /** As sniffed (jpeg, png, heic, …). */
  format: string;
  /** Display size, after applying EXIF orientation. */
  width: number;
  height: number;
  exif: ImageExif | null;
  /** WebP, long side 256 px (never upscaled), orientation applied. */
  thumbnail: Buffer;
  /**
   * JPEG (transparency flattened on white), long side 1024 px (never upscaled), orientation applied; null when
   * the original is an upright JPEG within that size, which then serves as its own preview.
   */
  preview: Buffer | null;
  /** 64-bit DCT perceptual hash as 16 lowercase hex characters. */
  phash: string;
  /** Variance of the Laplacian of a grayscale downscale (long side 512): low = blurry. */
  blur: number;
  /** Mean luma, 0..255. */
  brightness: number;
  /** 99th percentile of the per-pixel channel spread (max − min of R, G, B), 0..255: low = grayscale. */
  colorSpread: number;
  /** Shannon entropy of the gray histogram, bits (0..8): low = little information. */
  entropy: number;
  flags: ImageFlag[];
  /**
   * sha256 of the full-size decoded pixels (oriented, with their size and channel count), so a lossless re-encode of
   * the same pixels has the same hash; null above PIXEL_HASH_MAX_PIXELS, where the analysis never decodes full size.
   */
  pixelHash: string | null;
  /** Present when an embedder was given. */
  embedding: MediaEmbedding | null;
}

export interface MediaEmbedding {
  /** `name@version` of the embedder, the key under which vectors are comparable. */
  model: string;
  vector: Float32Array;
}

/** A region of the displayed (oriented) image in its own pixels. */
export interface CropBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const THUMBNAIL_SIDE = 256;
/**
 * The largest image (pixels) given a pixel hash: one decoded below full size by the analysis is decoded once more at
 * full size for it (CPU per 1024×768 JPEG in docs/curation.md); a 12 MP photo would cost more than its whole analysis.
 */
export const PIXEL_HASH_MAX_PIXELS = 2048 * 2048;
export const PREVIEW_SIDE = 1024;
/** WebP effort for thumbnails: 2 makes files 2–4 % larger than the default 4 at half the encode time (4.2 vs 8.6 ms). */
const THUMBNAIL_EFFORT = 2;

/**
 * Decodes the image once, oriented, at most preview size, and derives thumbnail, preview, hashes, quality and
 * embedding from those pixels, the measures from a downscale of them to QUALITY_SIDE. Throws ImageDecodeError for
 * corrupt or unsupported files, and the signal's reason when aborted.
 */
export async function analyzeImage(filePath: string, format: string, signal?: AbortSignal, embedder?: Embedder): Promise<ImageAnalysis> {
  signal?.throwIfAborted();
  // Full size up to the preview's: the pixel hash needs the full-size pixels, and a 1024×768 JPEG decoded full and
  // resized to QUALITY_SIDE costs 2.4 ms of CPU more than decoded at QUALITY_SIDE, where a second decode for the hash cost 8.7.
  const decoded = await decodeImage(filePath, format, PREVIEW_SIDE, signal);
  signal?.throwIfAborted();
  const pixelHashing = pixelHash(filePath, format, decoded);

  const pixels = () => sharp(decoded.pixels, { raw: decoded.raw });
  const [preview, work] = await Promise.all([
    // JPEG encodes 4x faster than WebP at effort 2 (18 vs 70 ms at 1024x768) for 1.7x the bytes; previews are
    // made for every media but fetched rarely, so encode time wins. A JPEG that already fits needs none.
    decoded.showableAsIs ? null : pixels().flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer(),
    Math.max(decoded.raw.width, decoded.raw.height) <= QUALITY_SIDE
      ? { data: decoded.pixels, info: decoded.raw }
      : pixels().resize(box(QUALITY_SIDE)).raw().toBuffer({ resolveWithObject: true }),
  ]);
  const { width, height, channels } = work.info;
  const workPixels = () => sharp(work.data, { raw: { width, height, channels } });
  const thumbnailing = encodeThumbnail(workPixels());
  const embedding = embedder ? embedPixels(embedder, workPixels()) : null;
  // Measured on this thread while libvips encodes and resizes on its own.
  const gray = grayscale(work.data, width, height, channels);
  const quality = measureQuality(gray, width, height);
  const content = measureContent(work.data, gray, channels);
  const [thumbnail, embedded, hashPixels, pixelHashed] = await Promise.all([thumbnailing, embedding, hashInput(gray, width, height), pixelHashing]);
  signal?.throwIfAborted();

  return {
    format,
    width: decoded.width,
    height: decoded.height,
    exif: parseExif(decoded.exif),
    thumbnail,
    preview,
    phash: phashFromGray(hashPixels),
    ...quality,
    ...content,
    flags: [...quality.flags, ...contentFlags(content)],
    pixelHash: pixelHashed,
    embedding: embedded,
  };
}

/**
 * The pixel hash of the decoded original: the analysis's own pixels when it decoded full size, else (an image
 * sharp decodes, up to PIXEL_HASH_MAX_PIXELS) a second decode at full size. Hashing the downscaled pixels instead
 * would tell a JPEG from its PNG re-encode: libvips shrinks a JPEG while decoding it (DCT scaling), a PNG after.
 */
async function pixelHash(filePath: string, format: string, decoded: DecodedImage): Promise<string | null> {
  if (decoded.raw.width === decoded.width && decoded.raw.height === decoded.height) return hashPixels(decoded.pixels, decoded.raw);
  if (!SHARP_FORMATS.has(format) || decoded.width * decoded.height > PIXEL_HASH_MAX_PIXELS) return null;
  try {
    const { data, info } = await sharp(filePath, { autoOrient: true, pages: 1 }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    return hashPixels(data, info);
  } catch {
    return null; // the analysis's own decode worked: a file only a downscaling decode gets through has no pixel hash
  }
}

function hashPixels(pixels: Uint8Array, raw: { width: number; height: number; channels: number }): string {
  return createHash('sha256').update(`${raw.width}x${raw.height}x${raw.channels}:`).update(pixels).digest('hex');
}

/** Embeds an image file, or the `crop` of it (in displayed pixels), for a similarity search. */
export async function embedImageFile(filePath: string, format: string, embedder: Embedder, crop?: CropBox, signal?: AbortSignal): Promise<MediaEmbedding> {
  const decoded = await decodeImage(filePath, format, PREVIEW_SIDE, signal);
  const pixels = sharp(decoded.pixels, { raw: decoded.raw });
  return embedPixels(embedder, crop ? pixels.extract(scaledCrop(crop, decoded)) : pixels);
}

/** The crop in the decoded (downscaled) pixels, clipped to the image; an empty region is a decode error. */
function scaledCrop(crop: CropBox, decoded: DecodedImage) {
  const scale = decoded.raw.width / decoded.width;
  const left = Math.max(0, Math.floor(crop.left * scale));
  const top = Math.max(0, Math.floor(crop.top * scale));
  const width = Math.min(decoded.raw.width - left, Math.ceil(crop.width * scale));
  const height = Math.min(decoded.raw.height - top, Math.ceil(crop.height * scale));
  if (!(width > 0 && height > 0)) throw new ImageDecodeError(`bounding box ${crop.left},${crop.top},${crop.width},${crop.height} lies outside the ${decoded.width}×${decoded.height} image`);
  return { left, top, width, height };
}

/** The thumbnail of the pixels: WebP, long side THUMBNAIL_SIDE (never upscaled). */
export function encodeThumbnail(pixels: Sharp): Promise<Buffer> {
  return pixels.resize(box(THUMBNAIL_SIDE)).webp({ quality: 75, effort: THUMBNAIL_EFFORT }).toBuffer();
}

/** What the embedder sees: the whole picture squeezed to its `side`² input, as RGB on white. */
export function embedderInput(pixels: Sharp, side: number): Promise<Buffer> {
  return pixels.flatten({ background: '#ffffff' }).resize(side, side, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

async function embedPixels(embedder: Embedder, pixels: Sharp): Promise<MediaEmbedding> {
  const side = embedder.inputSize;
  const vector = await embedder.embed({ data: await embedderInput(pixels, side), width: side, height: side });
  return { model: `${embedder.name}@${embedder.version}`, vector };
}

/** The hash's square input, squeezed from the gray image; one smaller than it on a side is stretched by sharp instead. */
async function hashInput(gray: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  if (width >= PHASH_INPUT_SIZE && height >= PHASH_INPUT_SIZE) return areaResize(gray, width, height, PHASH_INPUT_SIZE, PHASH_INPUT_SIZE);
  return sharp(gray, { raw: { width, height, channels: 1 } })
    .grayscale() // without it sharp hands single-channel raw input back as sRGB
    .resize(PHASH_INPUT_SIZE, PHASH_INPUT_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer();
}

function box(side: number): ResizeOptions {
  return { width: side, height: side, fit: 'inside', withoutEnlargement: true };
}
