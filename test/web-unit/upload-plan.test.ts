import { describe, expect, it } from 'vitest';
import {
  BATCH_FILES,
  etaSeconds,
  formatEta,
  formatMegabytes,
  formatRate,
  isMedia,
  planBatches,
  selectMedia,
  totalBytes,
  uploadRate,
} from '../../web/src/datasets/upload-plan.js';

const file = (name: string, size = 1000, type = '') => ({ name, size, type });

describe('upload plan', () => {
  it('keeps images and videos by extension, whatever the case, and skips the rest with a count', () => {
    const chosen = [
      file('a.JPG'), file('b.jpeg'), file('c.png'), file('d.webp'), file('e.gif'), file('f.bmp'), file('g.tif'), file('h.TIFF'),
      file('i.heic'), file('j.heif'), file('k.avif'), file('l.mp4'), file('m.MOV'), file('n.webm'), file('o.mkv'), file('p.avi'),
      file('notes.txt', 10, 'text/plain'), file('labels.csv'), file('archive.zip', 10, 'application/zip'), file('.DS_Store'),
      file('._a.jpg'), file('drawing.svg', 10, 'image/svg+xml'), file('photo.jpg.part'),
    ];
    const { media, skipped } = selectMedia(chosen);
    expect(media.map((f) => f.name)).toEqual(chosen.slice(0, 16).map((f) => f.name));
    expect(skipped).toBe(7);
  });

  it('reads the MIME type only for a name without an extension', () => {
    expect(isMedia(file('IMG_0001', 10, 'image/jpeg'))).toBe(true);
    expect(isMedia(file('clip', 10, 'video/mp4'))).toBe(true);
    expect(isMedia(file('README', 10, 'text/plain'))).toBe(false);
    expect(isMedia(file('picture', 10, 'image/svg+xml'))).toBe(false);
    expect(isMedia(file('photo.jfif', 10, 'image/jpeg'))).toBe(false);
  });

  it('splits the upload into batches of 50 files, in order', () => {
    const files = Array.from({ length: 121 }, (_, i) => file(`${i}.jpg`));
    const batches = planBatches(files);
    expect(BATCH_FILES).toBe(50);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 21]);
    expect(batches.flat()).toEqual(files);
    expect(planBatches(files.slice(0, 50)).map((b) => b.length)).toEqual([50]);
    expect(planBatches([])).toEqual([]);
  });

  it('closes a batch before it passes the byte cap, and gives a file over the cap a batch of its own', () => {
    const sizes = [400, 400, 400, 1500, 100, 100];
    const batches = planBatches(sizes.map((s, i) => file(`${i}.mp4`, s)), 50, 1000);
    expect(batches.map((b) => b.map((f) => f.size))).toEqual([[400, 400], [400], [1500], [100, 100]]);
    expect(totalBytes(batches.flat())).toBe(2900);
  });

  it('works out the rate and the time left from the bytes sent so far', () => {
    const figures = { bytesDone: 5_000_000, bytesTotal: 20_000_000, elapsedMs: 2_000 };
    expect(uploadRate(figures)).toBe(2_500_000);
    expect(etaSeconds(figures)).toBe(6);
    expect(uploadRate({ ...figures, bytesDone: 0 })).toBeNull();
    expect(etaSeconds({ ...figures, elapsedMs: 0 })).toBeNull();
    expect(etaSeconds({ ...figures, bytesDone: 20_000_000 })).toBe(0);
  });

  it('formats sizes, rates and durations for people', () => {
    expect(formatMegabytes(0)).toBe('0.0 MB');
    expect(formatMegabytes(12_345_678)).toBe('12.3 MB');
    expect(formatRate(2_500_000)).toBe('2.5 MB/s');
    expect(formatRate(null)).toBe('– MB/s');
    expect(formatEta(null)).toBe('–');
    expect(formatEta(0)).toBe('0 s');
    expect(formatEta(45)).toBe('45 s');
    expect(formatEta(185)).toBe('3 min 05 s');
    expect(formatEta(7620)).toBe('2 h 07 min');
  });
});
