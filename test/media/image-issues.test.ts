import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISSUE_THRESHOLDS, PIXEL_HASH_MAX_PIXELS, analyzeImage, type ImageAnalysis } from '../../src/adapters/media/image.js';

/** Issue 29's per-image measures (colour spread, entropy, pixel hash) on the fixture photos and edits made from them. */

const photos = path.join(import.meta.dirname, '../fixtures/photos');
const PHOTOS = ['dog.jpg', 'horses.jpg', 'person.jpg', 'kite.jpg', 'chelsea.png', 'coffee.png', 'astronaut.png'];
const formatOf = (name: string) => (name.endsWith('.png') ? 'png' : 'jpeg');

let dir: string;
const originals = new Map<string, ImageAnalysis>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loupe-issues-'));
  for (const name of PHOTOS) originals.set(name, await analyzeImage(path.join(photos, name), formatOf(name)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function analyzeEdit(name: string, bytes: Buffer | Promise<Buffer>): Promise<ImageAnalysis> {
  const file = path.join(dir, name);
  await writeFile(file, await bytes);
  return analyzeImage(file, formatOf(name));
}

const source = (name: string) => sharp(path.join(photos, name));

describe('grayscale and low information', () => {
  it('colour photos, darkened or washed out, are neither grayscale nor low in information', async () => {
    for (const name of PHOTOS) {
      const photo = originals.get(name)!;
      expect(photo.colorSpread, name).toBeGreaterThan(50);
      expect(photo.entropy, name).toBeGreaterThan(6.5);
      expect(photo.flags, name).not.toContain('grayscale');
      expect(photo.flags, name).not.toContain('low_information');
    }
    for (const name of ['horses.jpg', 'kite.jpg']) {
      const dark = await analyzeEdit(`dark-${name}`, source(name).linear(0.1, 0).jpeg().toBuffer());
      const faded = await analyzeEdit(`faded-${name}`, source(name).linear(0.2, 210).jpeg().toBuffer());
      for (const edit of [dark, faded]) {
        expect(edit.colorSpread, name).toBeGreaterThan(3 * ISSUE_THRESHOLDS.grayscaleSpreadAtMost);
        expect(edit.entropy, name).toBeGreaterThan(ISSUE_THRESHOLDS.lowInformationEntropyBelow + 1);
      }
      expect(dark.flags).toEqual(['dark']);
      expect(faded.flags).toEqual(['bright']);
    }
  });

  it('a grayscale copy, one channel or RGB, has no colour spread and is flagged grayscale only', async () => {
    for (const name of ['dog.jpg', 'chelsea.png']) {
      const one = await analyzeEdit(`gray1-${name}.jpg`, source(name).grayscale().jpeg().toBuffer());
      const rgb = await analyzeEdit(`gray3-${name}.png`, source(name).grayscale().toColourspace('srgb').png().toBuffer());
      for (const gray of [one, rgb]) {
        expect(gray.colorSpread, name).toBe(0);
        expect(gray.flags, name).toEqual(['grayscale']);
      }
    }
  });

  it('a flat colour has entropy 0 and a page of text little more: both low in information', async () => {
    const flat = await analyzeEdit('flat.png', sharp({ create: { width: 300, height: 200, channels: 3, background: '#c03020' } }).png().toBuffer());
    expect(flat.entropy).toBe(0);
    expect(flat.flags).toEqual(['blurry', 'low_information']);
    const page = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="white"/><text x="50" y="100" font-size="40">Invoice 42</text></svg>',
    );
    const text = await analyzeEdit('page.png', sharp(page).png().toBuffer());
    expect(text.entropy).toBeLessThan(1);
    expect(text.flags).toContain('low_information');
    expect(text.flags).toContain('grayscale');
  });
});

describe('pixel hash', () => {
  it('a PNG made from the decoded JPEG has the same pixel hash; a re-encoded JPEG, a crop or a rotation does not', async () => {
    for (const name of ['dog.jpg', 'kite.jpg', 'person.jpg']) {
      const photo = originals.get(name)!;
      expect(photo.pixelHash, name).toMatch(/^[0-9a-f]{64}$/);
      const png = await analyzeEdit(`${name}.png`, source(name).png().toBuffer());
      expect(png.pixelHash, name).toBe(photo.pixelHash);
      const requantised = await analyzeEdit(`q70-${name}`, source(name).jpeg({ quality: 70 }).toBuffer());
      expect(requantised.pixelHash, name).not.toBe(photo.pixelHash);
      const meta = await source(name).metadata();
      const cropped = await analyzeEdit(`crop-${name}`, source(name).extract({ left: 0, top: 0, width: meta.width - 8, height: meta.height }).png().toBuffer());
      expect(cropped.pixelHash, name).not.toBe(photo.pixelHash);
    }
    const png = originals.get('chelsea.png')!;
    const rotated = await analyzeEdit('rotated.png', source('chelsea.png').rotate(180).png().toBuffer());
    expect(rotated.pixelHash).not.toBe(png.pixelHash);
  });

  it('an image above the pixel limit has none', async () => {
    const width = Math.ceil(PIXEL_HASH_MAX_PIXELS / 1000) + 1;
    const big = await analyzeEdit('big.jpg', sharp({ create: { width, height: 1000, channels: 3, background: '#808080' } }).jpeg().toBuffer());
    expect(big.pixelHash).toBeNull();
  });
});
