import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeImage, hammingDistance, ImageDecodeError, type ImageAnalysis } from '../../src/adapters/media/image.js';
import { SNIFF_BYTES, sniff } from '../../src/adapters/media/sniff.js';

const photos = path.join(import.meta.dirname, '../fixtures/photos');
const fixture = (name: string) => path.join(photos, name);
const HEX64 = /^[0-9a-f]{16}$/;

let dir: string;
const originals = new Map<string, ImageAnalysis>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loupe-image-'));
  for (const name of ['dog.jpg', 'person.jpg', 'horses.jpg', 'chelsea.png']) {
    originals.set(name, await analyzeImage(fixture(name), name.endsWith('.png') ? 'png' : 'jpeg'));
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the pipeline's output into the temp dir and analyses it with the format sniffed from its bytes. */
async function analyzeWritten(name: string, image: Sharp | Buffer): Promise<ImageAnalysis> {
  const file = path.join(dir, name);
  await writeFile(file, Buffer.isBuffer(image) ? image : await image.toBuffer());
  return analyzeImage(file, sniffFile(await readFile(file)));
}

function sniffFile(content: Buffer): string {
  return sniff(content.subarray(0, SNIFF_BYTES)).format;
}

function original(name: string): ImageAnalysis {
  const analysis = originals.get(name);
  if (!analysis) throw new Error(`no analysis of ${name}`);
  return analysis;
}

describe('analyzeImage on the fixture photos', () => {
  it('reads size, EXIF, derivatives and hash of a camera JPEG', async () => {
    const dog = original('dog.jpg');
    expect(dog).toMatchObject({ format: 'jpeg', width: 768, height: 576, flags: [] });
    expect(dog.exif).toEqual({ captured_at: '2014-09-19T16:08:30.000Z', make: 'Canon', model: 'Canon PowerShot S95', orientation: 1 });
    expect(await sharp(dog.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 256, height: 192 });
    // An upright JPEG that already fits the preview size is its own preview: none is encoded.
    expect(dog.preview).toBeNull();
    expect(dog.phash).toMatch(HEX64);
  });

  it('reports null EXIF for a PNG without any', () => {
    expect(original('chelsea.png')).toMatchObject({ format: 'png', width: 451, height: 300, exif: null });
  });

  it('scales the preview to 1024 and the thumbnail to 256 on the long side', async () => {
    const large = await analyzeWritten('large.jpg', sharp(fixture('person.jpg')).resize(2000).jpeg());
    expect([large.width, large.height]).toEqual([2000, 1325]);
    expect(await sharp(large.preview!).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 678 });
    expect(await sharp(large.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 256, height: 170 });
  });

  it('encodes a preview for a JPEG that fits but is heavy (over 1.5 MB), and for other formats', async () => {
    const noise = sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } });
    const heavy = await analyzeWritten('heavy.jpg', noise.jpeg({ quality: 100, chromaSubsampling: '4:4:4' }));
    expect(heavy.preview).not.toBeNull();
    expect(original('chelsea.png').preview).not.toBeNull();
  });

  it('never upscales a small image', async () => {
    const tiny = await analyzeWritten('tiny.png', sharp(fixture('chelsea.png')).resize(60).png());
    expect(await sharp(tiny.thumbnail).metadata()).toMatchObject({ width: 60, height: 40 });
    expect(await sharp(tiny.preview!).metadata()).toMatchObject({ format: 'jpeg', width: 60, height: 40 });
  });
});

describe('analyzeImage per format', () => {
  const resized = () => sharp(fixture('dog.jpg')).resize(320);

  it.each([
    ['webp', () => resized().webp()],
    ['avif', () => resized().avif()],
    ['tiff', () => resized().tiff()],
    ['gif', () => resized().gif()],
  ])('decodes %s', async (format, encode) => {
    const analysis = await analyzeWritten(`dog.${format}`, encode());
    expect(analysis).toMatchObject({ format, width: 320, height: 240, exif: null });
    expect(hammingDistance(analysis.phash, original('dog.jpg').phash)).toBeLessThanOrEqual(10);
  });

  it('decodes only the first frame of an animated GIF', async () => {
    const red = Buffer.alloc(40 * 30 * 3);
    for (let i = 0; i < red.length; i += 3) red[i] = 255;
    const blue = Buffer.alloc(40 * 30 * 3);
    for (let i = 2; i < blue.length; i += 3) blue[i] = 255;
    const frames = sharp(Buffer.concat([red, blue]), { raw: { width: 40, height: 60, channels: 3, pageHeight: 30 } }).gif();
    const analysis = await analyzeWritten('frames.gif', frames);
    expect([analysis.width, analysis.height]).toEqual([40, 30]);
    const { data } = await sharp(analysis.preview!).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].map((value) => Math.round(value / 16))).toEqual([16, 0, 0]);
  });

  it('decodes a HEIC photo (libheif via WebAssembly) with its EXIF', async () => {
    const heic = await analyzeImage(fixture('small.heic'), 'heic');
    expect(heic).toMatchObject({ format: 'heic', width: 64, height: 48 });
    expect(heic.exif).toMatchObject({ make: 'Canon', model: 'Canon PowerShot S95', captured_at: '2014-09-19T16:08:30.000Z' });
    expect(await sharp(heic.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(hammingDistance(heic.phash, original('dog.jpg').phash)).toBeLessThanOrEqual(10);
  });

  it('decodes a hand-made 24-bit BMP with the right colours', async () => {
    const analysis = await analyzeWritten('halves.bmp', halvesBmp(14, 8));
    expect(analysis).toMatchObject({ format: 'bmp', width: 14, height: 8, exif: null });
    const { data, info } = await sharp(analysis.preview!).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 14 + x) * info.channels, (y * 14 + x) * info.channels + 3)];
    expect(pixel(2, 4).map((value) => Math.round(value / 32))).toEqual([8, 0, 0]);
    expect(pixel(11, 4).map((value) => Math.round(value / 32))).toEqual([0, 0, 8]);
  });
});

describe('EXIF', () => {
  it('reports the oriented size and rotates the pixels for EXIF orientation 6', async () => {
    const rotated = await analyzeWritten('rotated.jpg', sharp(fixture('person.jpg')).withMetadata({ orientation: 6 }).jpeg());
    expect([rotated.width, rotated.height]).toEqual([424, 640]);
    expect(rotated.exif?.orientation).toBe(6);
    expect(await sharp(rotated.thumbnail).metadata()).toMatchObject({ width: 170, height: 256 });
    expect(await sharp(rotated.preview!).metadata()).toMatchObject({ format: 'jpeg', width: 424, height: 640 });
    const turned = await analyzeWritten('turned.jpg', sharp(fixture('person.jpg')).rotate(90).jpeg());
    expect(hammingDistance(rotated.phash, turned.phash)).toBeLessThanOrEqual(4);
  });

  it('converts capture time with its offset to UTC and GPS to signed decimal degrees', async () => {
    const tagged = sharp(fixture('person.jpg')).withExif({
      IFD0: { Make: 'Loupe', Model: 'TestCam 1' },
      IFD2: { DateTimeOriginal: '2021:06:15 14:30:05', OffsetTimeOriginal: '+02:00' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '33/1 51/1 5400/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '70/1 39/1 0/1',
        GPSAltitudeRef: '0',
        GPSAltitude: '12/1',
      },
    });
    const jpeg = await tagged.jpeg().toBuffer();
    // libvips writes BYTE tags only as 0, so flip GPSAltitudeRef (tag 5, type BYTE, count 1) to 1, "below sea level", by hand.
    const altitudeRef = jpeg.indexOf(Buffer.from([0, 5, 0, 1, 0, 0, 0, 1, 0]));
    expect(altitudeRef).toBeGreaterThan(0);
    jpeg[altitudeRef + 8] = 1;
    const { exif } = await analyzeWritten('tagged.jpg', jpeg);
    expect(exif).toMatchObject({ captured_at: '2021-06-15T12:30:05.000Z', make: 'Loupe', model: 'TestCam 1' });
    expect(exif?.gps?.latitude).toBeCloseTo(-(33 + 51 / 60 + 54 / 3600), 6);
    expect(exif?.gps?.longitude).toBeCloseTo(-(70 + 39 / 60), 6);
    expect(exif?.gps?.altitude).toBe(-12);
  });

  it('keeps analysing an image whose EXIF block is garbage', async () => {
    const jpeg = await sharp(fixture('chelsea.png')).jpeg().toBuffer();
    const payload = Buffer.from('Exif\0\0MM\0\x2a\0\0\0\x08\0\x05\xff\xff\xff\xff\xff\xff', 'latin1');
    const segment = Buffer.from([0xff, 0xe1, 0, payload.length + 2]);
    const broken = Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
    expect(await analyzeWritten('bad-exif.jpg', broken)).toMatchObject({ width: 451, height: 300, exif: null });
  });
});

describe('perceptual hash', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0123456789abcdef', '0123456789abcdef')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow(TypeError);
  });

  it.each(['dog.jpg', 'person.jpg', 'horses.jpg'])('stays close for re-encodes, rescales and a small crop of %s', async (name) => {
    const { width, height } = await sharp(fixture(name)).metadata();
    const [dx, dy] = [Math.round(width * 0.02), Math.round(height * 0.02)];
    const edits: Record<string, Sharp> = {
      'quality 30': sharp(fixture(name)).jpeg({ quality: 30 }),
      'half size': sharp(fixture(name)).resize(Math.round(width / 2)).jpeg(),
      webp: sharp(fixture(name)).webp({ quality: 50 }),
      '2% crop': sharp(fixture(name)).extract({ left: dx, top: dy, width: width - 2 * dx, height: height - 2 * dy }).jpeg(),
    };
    for (const [edit, image] of Object.entries(edits)) {
      const analysis = await analyzeWritten(`${edit}-${name}`, image);
      expect(hammingDistance(analysis.phash, original(name).phash), edit).toBeLessThanOrEqual(10);
    }
  });

  it('is far apart for different photos', () => {
    const names = [...originals.keys()];
    for (const a of names) {
      for (const b of names) {
        if (a < b) expect(hammingDistance(original(a).phash, original(b).phash), `${a} vs ${b}`).toBeGreaterThan(20);
      }
    }
  });
});

describe('quality flags', () => {
  it('leaves the sharp, well-exposed fixtures unflagged', () => {
    for (const [name, analysis] of originals) {
      expect(analysis.flags, name).toEqual([]);
      expect(analysis.blur, name).toBeGreaterThan(300);
      expect(analysis.brightness, name).toBeGreaterThan(100);
      expect(analysis.brightness, name).toBeLessThan(170);
    }
  });

  it('flags a darkened photo as dark only', async () => {
    const dark = await analyzeWritten('dark.jpg', sharp(fixture('dog.jpg')).linear(0.1, 0).jpeg());
    expect(dark.brightness).toBeLessThan(20);
    expect(dark.flags).toEqual(['dark']);
  });

  it('flags a washed-out photo as bright only', async () => {
    const bright = await analyzeWritten('bright.jpg', sharp(fixture('dog.jpg')).linear(0.2, 210).jpeg());
    expect(bright.brightness).toBeGreaterThan(230);
    expect(bright.flags).toEqual(['bright']);
  });

  it.each(['dog.jpg', 'chelsea.png'])('flags a gaussian-blurred %s as blurry', async (name) => {
    const blurred = await analyzeWritten(`blurred-${name}.jpg`, sharp(fixture(name)).blur(3).jpeg());
    expect(blurred.blur).toBeLessThan(original(name).blur / 10);
    expect(blurred.flags).toEqual(['blurry']);
  });
});

describe('failures', () => {
  it('rejects a truncated JPEG with ImageDecodeError', async () => {
    const jpeg = await readFile(fixture('dog.jpg'));
    const file = path.join(dir, 'truncated.jpg');
    await writeFile(file, jpeg.subarray(0, Math.floor(jpeg.length * 0.4)));
    const error = await analyzeImage(file, 'jpeg').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ImageDecodeError);
    expect((error as Error).message).toMatch(/^cannot decode jpeg image: .+/);
    expect((error as Error).message).not.toContain('\n');
  });

  it.each([
    ['png', Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(200, 7)])],
    ['heic', Buffer.concat([Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(200, 7)])],
    ['bmp', halvesBmp(14, 8).subarray(0, 100)],
  ])('rejects a corrupt %s with ImageDecodeError', async (format, content) => {
    const file = path.join(dir, `corrupt.${format}`);
    await writeFile(file, content);
    await expect(analyzeImage(file, format)).rejects.toThrow(ImageDecodeError);
  });

  it('refuses formats it does not decode', async () => {
    await expect(analyzeImage(fixture('dog.jpg'), 'mp4')).rejects.toThrow(/unsupported image format: mp4/);
  });

  it('lets a missing file surface as an I/O error, not a decode error', async () => {
    const error = await analyzeImage(path.join(dir, 'missing.jpg'), 'jpeg').catch((err: unknown) => err);
    expect(error).not.toBeInstanceOf(ImageDecodeError);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    await expect(analyzeImage(fixture('dog.jpg'), 'jpeg', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops between steps when aborted while running', async () => {
    const heic = path.join(dir, 'abort.heic');
    await copyFile(fixture('small.heic'), heic);
    for (const [file, format] of [[fixture('dog.jpg'), 'jpeg'], [heic, 'heic']] as const) {
      const controller = new AbortController();
      const running = analyzeImage(file, format, controller.signal);
      controller.abort();
      await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    }
  });
});

/** A 24-bit bottom-up BMP, left half red and right half blue; rows padded to 4 bytes as the format requires. */
function halvesBmp(width: number, height: number): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + rowSize * height, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(rowSize * height, 34);
  const pixels = Buffer.alloc(rowSize * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [blue, green, red] = x < width / 2 ? [0, 0, 255] : [255, 0, 0];
      pixels.set([blue, green, red], y * rowSize + x * 3);
    }
  }
  return Buffer.concat([header, pixels]);
}
