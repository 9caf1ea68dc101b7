import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { areaResize, grayscale } from '../../src/adapters/media/gray.js';

const fixture = (name: string) => path.join(import.meta.dirname, '../fixtures/photos', name);

describe('grayscale', () => {
  it.each(['dog.jpg', 'chelsea.png'])('matches sharp flatten + grayscale within 2 levels on %s, with and without alpha', async (name) => {
    for (const alpha of [false, true]) {
      const source = alpha ? sharp(fixture(name)).ensureAlpha(0.5) : sharp(fixture(name)).removeAlpha();
      const { data, info } = await source.raw().toBuffer({ resolveWithObject: true });
      const expected = await sharp(data, { raw: info }).flatten({ background: '#ffffff' }).grayscale().raw().toBuffer();
      const gray = grayscale(data, info.width, info.height, info.channels);
      expect(gray.length).toBe(info.width * info.height);
      let worst = 0;
      for (let i = 0; i < gray.length; i++) worst = Math.max(worst, Math.abs(gray[i]! - expected[i]!));
      expect(worst).toBeLessThanOrEqual(2);
    }
  });

  it('passes one-channel pixels through and puts gray with alpha on white', () => {
    expect([...grayscale(Uint8Array.from([0, 128, 255]), 3, 1, 1)]).toEqual([0, 128, 255]);
    expect([...grayscale(Uint8Array.from([0, 255, 0, 0, 0, 128]), 3, 1, 2)]).toEqual([0, 255, 127]);
  });

  it('refuses a buffer of the wrong length', () => {
    expect(() => grayscale(new Uint8Array(5), 2, 1, 3)).toThrow('expected 2×1×3 bytes');
  });
});

describe('areaResize', () => {
  it('averages whole blocks exactly', () => {
    const image = Uint8Array.from([0, 0, 100, 100, 0, 0, 100, 100, 40, 40, 200, 200, 40, 40, 200, 200]);
    expect([...areaResize(image, 4, 4, 2, 2)]).toEqual([0, 100, 40, 200]);
  });

  it('weights pixels split between cells by their overlap', () => {
    // 3 pixels into 2 cells: the middle one counts half in each.
    expect([...areaResize(Uint8Array.from([0, 90, 180]), 3, 1, 2, 1)]).toEqual([30, 150]);
  });

  it('keeps a flat image flat and only shrinks', () => {
    expect(new Set(areaResize(new Uint8Array(97 * 61).fill(77), 97, 61, 32, 32))).toEqual(new Set([77]));
    expect(() => areaResize(new Uint8Array(4), 2, 2, 3, 2)).toThrow(RangeError);
  });
});
