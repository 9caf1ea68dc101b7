import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { HEADER_BYTES, checkImageHeader, fileHeaderSource } from '../../src/adapters/media/image-header.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-image-header-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dog = fs.readFileSync('test/fixtures/photos/dog.jpg');

/** Files the check opened since the last call of check(). */
let opened = 0;

/** Checks `bytes` twice: from the file alone, and with the first `inHand` bytes in memory as an upload has them; both must agree. */
async function check(bytes: Buffer, format: string, inHand = HEADER_BYTES) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${format}`);
  fs.writeFileSync(file, bytes);
  const fromFile = await checkImageHeader(fileHeaderSource(file, bytes.length), format);
  opened = 0;
  const local = async () => {
    opened += 1;
    return { path: file, release: async () => {} };
  };
  const withHead = await checkImageHeader({ head: bytes.subarray(0, inHand), size: bytes.length, localFile: local }, format);
  expect(withHead).toEqual(fromFile);
  return withHead;
}

describe('checkImageHeader', () => {
  it('passes whole photos of every format it reads', async () => {
    expect(await check(dog, 'jpeg')).toBeNull();
    expect(opened, 'an upload checks a JPEG from the bytes it kept').toBe(0);
    expect(await check(dog, 'jpeg', 100)).toBeNull();
    expect(opened, 'past the bytes in hand, one read of the file').toBe(1);
    expect(await check(fs.readFileSync('test/fixtures/photos/coffee.png'), 'png')).toBeNull();
    expect(opened).toBe(0);
    expect(await check(await sharp(dog).webp().toBuffer(), 'webp')).toBeNull();
    expect(await check(fs.readFileSync('test/fixtures/photos/small.heic'), 'heic')).toBeNull();
  });

  it('finds no image data in a JPEG cut anywhere before its scan data, wherever the cut falls', async () => {
    // dog.jpg's start of scan header ends at byte 8947: up to there nothing of the image is present.
    for (const end of [2, 600, 5000, 8340, 8945, 8947]) expect(await check(dog.subarray(0, end), 'jpeg'), `cut at ${end}`).toEqual({ problem: 'no_image_data' });
    expect(await check(dog.subarray(0, 20_000), 'jpeg')).toBeNull(); // cut inside the scan: processing decides
  });

  it("reads the declared size from a JPEG's frame header", async () => {
    const sof = dog.indexOf(Buffer.from([0xff, 0xc0]));
    const huge = Buffer.from(dog);
    huge.writeUInt16BE(40_000, sof + 5);
    huge.writeUInt16BE(40_000, sof + 7);
    expect(await check(huge, 'jpeg')).toEqual({ problem: 'too_large', width: 40_000, height: 40_000, limit: 268_402_689 });
  });

  it('walks headers longer than its 64 KB read window (three 60 KB APP segments before the frame)', async () => {
    const app = (fill: number) => Buffer.concat([Buffer.from([0xff, 0xe2, 0xea, 0x62]), Buffer.alloc(0xea62 - 2, fill)]);
    const padded = Buffer.concat([dog.subarray(0, 2), app(0xff), app(0xd8), app(1), dog.subarray(2)]);
    expect(await check(padded, 'jpeg')).toBeNull();
    expect(opened, 'the file is opened once however many windows it reads').toBe(1);
    const sof = padded.indexOf(Buffer.from([0xff, 0xc0]), 3 * 0xea64);
    const huge = Buffer.from(padded);
    huge.writeUInt16BE(40_000, sof + 5);
    huge.writeUInt16BE(40_000, sof + 7);
    expect(await check(huge, 'jpeg')).toEqual({ problem: 'too_large', width: 40_000, height: 40_000, limit: 268_402_689 });
    const scan = padded.indexOf(Buffer.from([0xff, 0xda]), sof);
    expect(await check(padded.subarray(0, scan + 4), 'jpeg')).toEqual({ problem: 'no_image_data' });
    expect(await sharp(padded).metadata()).toMatchObject({ width: 768, height: 576 });
  });

  it('gives no verdict on a header it cannot make sense of', async () => {
    expect(await check(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), 'jpeg')).toBeNull();
    expect(await check(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(500, 1)]), 'png')).toBeNull();
  });
});
