import { afterAll, describe, expect, it } from 'vitest';
import { ImageDecodeError, analyzeImage } from '../../src/adapters/media/image.js';
import { ImageWorkerPool } from '../../src/adapters/media/image-workers.js';

const pool = new ImageWorkerPool(2);
afterAll(() => pool.close());

describe('ImageWorkerPool', () => {
  it('gives the same analysis as the main thread, for several images at once', async () => {
    const files = ['dog.jpg', 'person.jpg', 'horses.jpg', 'chelsea.png'].map((f) => `test/fixtures/photos/${f}`);
    const formats = ['jpeg', 'jpeg', 'jpeg', 'png'];
    const [inWorkers, inMain] = await Promise.all([
      Promise.all(files.map((f, i) => pool.analyze(f, formats[i]!))),
      Promise.all(files.map((f, i) => analyzeImage(f, formats[i]!))),
    ]);
    for (const [i, a] of inWorkers.entries()) {
      const b = inMain[i]!;
      expect({ ...a, thumbnail: a.thumbnail.length, preview: a.preview?.length }).toEqual({ ...b, thumbnail: b.thumbnail.length, preview: b.preview?.length });
      expect(Buffer.isBuffer(a.thumbnail)).toBe(true);
    }
  });

  it('decodes HEIC off the main thread', async () => {
    expect(await pool.analyze('test/fixtures/photos/small.heic', 'heic')).toMatchObject({ width: 64, height: 48 });
  });

  it('passes ImageDecodeError across the thread boundary', async () => {
    await expect(pool.analyze('package.json', 'jpeg')).rejects.toBeInstanceOf(ImageDecodeError);
  });

  it('rejects at once with the abort reason', async () => {
    const controller = new AbortController();
    const pending = pool.analyze('test/fixtures/photos/dog.jpg', 'jpeg', controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(pool.analyze('test/fixtures/photos/dog.jpg', 'jpeg', controller.signal)).rejects.toThrow('stop');
  });
});
