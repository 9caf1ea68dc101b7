import sharp, { type ResizeOptions, type Sharp } from 'sharp';
import type { Embedder } from '../models/embedder.js';
import { type DecodedImage, decodeImage } from './decode.js';
import { parseExif, type ImageExif } from './exif.js';
import { measureQuality, QUALITY_SIDE, type ImageFlag, type ImageQuality } from './image-quality.js';
import { PHASH_INPUT_SIZE, phashFromGray } from './phash.js';

import { ImageDecodeError } from './decode.js';

export { ImageDecodeError };
export { hammingDistance } from './phash.js';
export { QUALITY_THRESHOLDS } from './image-quality.js';
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
  flags: ImageFlag[];
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
export const PREVIEW_SIDE = 1024;

/**
 * Decodes the image once (oriented, at preview size) and derives thumbnail, preview, hash and quality from
 * those pixels. Throws ImageDecodeError for corrupt or unsupported files, and the signal's reason when aborted.
 */
export async function analyzeImage(filePath: string, format: string, signal?: AbortSignal, embedder?: Embedder): Promise<ImageAnalysis> {
  signal?.throwIfAborted();
  const decoded = await decodeImage(filePath, format, PREVIEW_SIDE, signal);
  signal?.throwIfAborted();

  const pixels = sharp(decoded.pixels, { raw: decoded.raw });
  const [thumbnail, preview, gray, embedding] = await Promise.all([
    pixels.clone().resize(box(THUMBNAIL_SIDE)).webp({ quality: 75 }).toBuffer(),
    // JPEG encodes 4x faster than WebP at effort 2 (18 vs 70 ms at 1024x768) for 1.7x the bytes; previews are
    // made for every media but fetched rarely, so encode time wins. A JPEG that already fits needs none.
    decoded.showableAsIs ? null : pixels.clone().flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer(),
    grayMeasures(pixels.clone()),
    embedder ? embedPixels(embedder, pixels.clone()) : null,
  ]);
  signal?.throwIfAborted();

  return {
    format,
    width: decoded.width,
    height: decoded.height,
    exif: parseExif(decoded.exif),
    thumbnail,
    preview,
    phash: gray.phash,
    ...gray.quality,
    embedding,
  };
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

/** The embedder sees the whole picture squeezed to its square input, as RGB on white. */
async function embedPixels(embedder: Embedder, pixels: Sharp): Promise<MediaEmbedding> {
  const side = embedder.inputSize;
  const rgb = await pixels.flatten({ background: '#ffffff' }).resize(side, side, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const vector = await embedder.embed({ data: rgb, width: side, height: side });
  return { model: `${embedder.name}@${embedder.version}`, vector };
}

/** Blur and brightness on a grayscale downscale, and the hash from a further downscale of that same gray image. */
async function grayMeasures(pixels: Sharp): Promise<{ quality: ImageQuality; phash: string }> {
  const gray = await pixels
    .flatten({ background: '#ffffff' })
    .grayscale()
    .resize(box(QUALITY_SIDE))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = gray.info;
  const hashInput = await sharp(gray.data, { raw: { width, height, channels: 1 } })
    .grayscale() // without it sharp hands single-channel raw input back as sRGB
    .resize(PHASH_INPUT_SIZE, PHASH_INPUT_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { quality: measureQuality(gray.data, width, height), phash: phashFromGray(hashInput) };
}

function box(side: number): ResizeOptions {
  return { width: side, height: side, fit: 'inside', withoutEnlargement: true };
}
