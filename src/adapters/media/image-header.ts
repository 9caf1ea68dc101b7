import { type FileHandle, open } from 'node:fs/promises';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, SHARP_FORMATS } from './decode.js';

/** Why an image can never decode, judged from its header alone; null when nothing there rules it out. */
export type HeaderVerdict =
  | { problem: 'too_large'; width: number; height: number; limit: number }
  | { problem: 'no_image_data' };

/** A stored image as the header check sees it: its first bytes in hand, the whole file on demand. */
export interface HeaderSource {
  /** The file's first bytes (any length, even none); reads past them go to the file. */
  head: Buffer;
  size: number;
  localFile(): Promise<{ path: string; release(): Promise<void> }>;
}

/** Bytes of a stored image worth keeping in memory as it streams in: PNG, BMP and most JPEG headers end within them. */
export const HEADER_BYTES = 64 * 1024;

/**
 * A cheap look at a stored image: its declared size against the decoder's pixel limit, and whether a JPEG
 * reaches its image data at all. Reads the header only: PNG's IHDR, BMP's info header, a walk over JPEG
 * segment lengths — from the bytes in hand where they suffice; libvips metadata for the other formats.
 * A header it cannot make sense of is no verdict: processing decides and records such a file as it always did.
 */
export async function checkImageHeader(source: HeaderSource, format: string): Promise<HeaderVerdict | null> {
  if (format === 'png' || format === 'jpeg' || format === 'bmp') {
    const reader = new WindowReader(source);
    try {
      const own = format === 'png' ? await pngHeader(reader) : format === 'jpeg' ? await jpegHeader(reader, source.size) : await bmpHeader(reader);
      return own ? ('problem' in own ? own : pixelVerdict(own.width, own.height)) : null;
    } finally {
      await reader.close();
    }
  }
  if (!SHARP_FORMATS.has(format) && format !== 'heic') return null;
  const local = await source.localFile();
  try {
    // libvips reads HEIF headers too, though the prebuilt sharp cannot decode HEVC.
    const metadata = await sharp(local.path).metadata().catch(() => null);
    return metadata ? pixelVerdict(metadata.width, metadata.height) : null;
  } finally {
    await local.release();
  }
}

/** A header check of a file on disk (no bytes in hand). */
export function fileHeaderSource(filePath: string, size: number): HeaderSource {
  return { head: Buffer.alloc(0), size, localFile: async () => ({ path: filePath, release: async () => {} }) };
}

type OwnHeader = { width: number; height: number } | HeaderVerdict;

function pixelVerdict(width: number, height: number): HeaderVerdict | null {
  return width * height > MAX_INPUT_PIXELS ? { problem: 'too_large', width, height, limit: MAX_INPUT_PIXELS } : null;
}

/**
 * Reads a stored image through a window: first the bytes in hand, then HEADER_BYTES from the file at a time, the file
 * opened only when a read falls outside what is held. Each file read is a thread-pool round trip that the event loop
 * pays for, while 20 uploads share it (issue 28, item 10): most JPEGs need none, a camera JPEG with a long EXIF one.
 */
class WindowReader {
  private window: Buffer;
  private start = 0;
  private file: { handle: FileHandle; release(): Promise<void> } | null = null;

  constructor(private readonly source: HeaderSource) {
    this.window = source.head;
  }

  /** Up to `length` bytes at `position` (fewer at the end of the file). */
  async at(position: number, length: number): Promise<Buffer> {
    const end = Math.min(position + length, this.source.size);
    if (position < this.start || end > this.start + this.window.length) {
      this.window = await this.read(position, Math.max(length, HEADER_BYTES));
      this.start = position;
    }
    return this.window.subarray(position - this.start, position - this.start + length);
  }

  async close(): Promise<void> {
    if (!this.file) return;
    await this.file.handle.close();
    await this.file.release();
  }

  private async read(position: number, length: number): Promise<Buffer> {
    if (!this.file) {
      const local = await this.source.localFile();
      this.file = { handle: await open(local.path, 'r').catch(async (err: unknown) => {
        await local.release();
        throw err;
      }), release: () => local.release() };
    }
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.file.handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  }
}

/** IHDR is always the first chunk: width and height at bytes 16 and 20. libpng refuses huge ones before libvips reports them. */
async function pngHeader(reader: WindowReader): Promise<OwnHeader | null> {
  const head = await reader.at(8, 16);
  if (head.length < 16 || head.toString('latin1', 4, 8) !== 'IHDR') return null;
  return { width: head.readUInt32BE(8), height: head.readUInt32BE(12) };
}

async function bmpHeader(reader: WindowReader): Promise<OwnHeader | null> {
  const head = await reader.at(18, 8);
  return head.length < 8 ? null : { width: head.readInt32LE(0), height: Math.abs(head.readInt32LE(4)) };
}

// SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
const NOT_FRAME = new Set([0xc4, 0xc8, 0xcc]);

/**
 * Follows the segment lengths from SOI to the start of scan (SOS), where the image data begins: a file that
 * ends first holds no image. The frame header (SOF) on the way gives the size.
 */
async function jpegHeader(reader: WindowReader, size: number): Promise<OwnHeader | null> {
  let position = 2;
  let frame: { width: number; height: number } | null = null;
  while (position + 4 <= size) {
    const segment = await reader.at(position, 9);
    if (segment[0] !== 0xff || segment.length < 4) return null;
    const marker = segment[1]!;
    if (marker === 0xff) {
      position += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      position += 2; // markers without a length
      continue;
    }
    const length = segment.readUInt16BE(2);
    if (marker === 0xda) return position + 2 + length < size ? frame : { problem: 'no_image_data' };
    if (marker >= 0xc0 && marker <= 0xcf && !NOT_FRAME.has(marker) && segment.length >= 9) {
      frame = { width: segment.readUInt16BE(7), height: segment.readUInt16BE(5) };
      const verdict = pixelVerdict(frame.width, frame.height);
      if (verdict) return verdict;
    }
    position += 2 + length;
  }
  return { problem: 'no_image_data' };
}
