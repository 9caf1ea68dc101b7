import { type FileHandle, open } from 'node:fs/promises';
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, SHARP_FORMATS } from './decode.js';

/** Why an image can never decode, judged from its header alone; null when nothing there rules it out. */
export type HeaderVerdict =
  | { problem: 'too_large'; width: number; height: number; limit: number }
  | { problem: 'no_image_data' };

/**
 * A cheap look at a stored image: its declared size against the decoder's pixel limit, and whether a JPEG
 * reaches its image data at all. Reads the header only: PNG's IHDR, BMP's info header, a walk over JPEG
 * segment lengths; libvips metadata for the other formats.
 * A header it cannot make sense of is no verdict: processing decides and records such a file as it always did.
 */
export async function checkImageHeader(filePath: string, format: string, size: number): Promise<HeaderVerdict | null> {
  const handle = await open(filePath, 'r');
  try {
    const own = format === 'png' ? await pngHeader(handle) : format === 'jpeg' ? await jpegHeader(handle, size) : format === 'bmp' ? await bmpHeader(handle) : null;
    if (own) return 'problem' in own ? own : pixelVerdict(own.width, own.height);
  } finally {
    await handle.close();
  }
  if (!SHARP_FORMATS.has(format) && format !== 'heic') return null;
  // libvips reads HEIF headers too, though the prebuilt sharp cannot decode HEVC.
  const metadata = await sharp(filePath).metadata().catch(() => null);
  return metadata ? pixelVerdict(metadata.width, metadata.height) : null;
}

type OwnHeader = { width: number; height: number } | HeaderVerdict;

function pixelVerdict(width: number, height: number): HeaderVerdict | null {
  return width * height > MAX_INPUT_PIXELS ? { problem: 'too_large', width, height, limit: MAX_INPUT_PIXELS } : null;
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** IHDR is always the first chunk: width and height at bytes 16 and 20. libpng refuses huge ones before libvips reports them. */
async function pngHeader(handle: FileHandle): Promise<OwnHeader | null> {
  const head = await bytesAt(handle, 8, 16);
  if (head.length < 16 || head.toString('latin1', 4, 8) !== 'IHDR') return null;
  return { width: head.readUInt32BE(8), height: head.readUInt32BE(12) };
}

async function bmpHeader(handle: FileHandle): Promise<OwnHeader | null> {
  const head = await bytesAt(handle, 18, 8);
  return head.length < 8 ? null : { width: head.readInt32LE(0), height: Math.abs(head.readInt32LE(4)) };
}

// SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
const NOT_FRAME = new Set([0xc4, 0xc8, 0xcc]);

/** Reads a file through one window of WINDOW bytes, moved only when a read falls outside it. */
class WindowReader {
  private window: Buffer = Buffer.alloc(0);
  private start = 0;

  constructor(private readonly handle: FileHandle) {}

  async at(position: number, length: number): Promise<Buffer> {
    if (position < this.start || position + length > this.start + this.window.length) {
      this.window = await bytesAt(this.handle, position, Math.max(length, WINDOW));
      this.start = position;
    }
    return this.window.subarray(position - this.start, position - this.start + length);
  }
}

// An upload's header check costs one read for most JPEGs (their segments before the scan, EXIF included, fit), not a
// dozen: each read is a thread-pool round trip that the event loop pays for while 20 uploads share it (issue 28, item 10).
const WINDOW = 64 * 1024;

/**
 * Follows the segment lengths from SOI to the start of scan (SOS), where the image data begins: a file that
 * ends first holds no image. The frame header (SOF) on the way gives the size.
 */
async function jpegHeader(handle: FileHandle, size: number): Promise<OwnHeader | null> {
  const reader = new WindowReader(handle);
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
