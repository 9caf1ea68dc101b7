import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageWorkerPool } from '../../src/adapters/media/image-workers.js';
import { embedderInput } from '../../src/adapters/media/image.js';
import { loadCenterNetEmbedder } from '../../src/adapters/models/centernet-embedder.js';
import { loadCenterNetOnnxEmbedder } from '../../src/adapters/models/centernet-onnx-embedder.js';
import type { Embedder, RgbImage } from '../../src/adapters/models/embedder.js';
import { loadImageEmbedder } from '../../src/adapters/models/image-embedder.js';

const PHOTOS = ['dog.jpg', 'person.jpg', 'kite.jpg', 'chelsea.png', 'astronaut.png'];
const photo = (name: string) => path.join('test', 'fixtures', 'photos', name);

async function rgbOf(file: string, side?: number): Promise<RgbImage> {
  const image = side ? sharp(await embedderInput(sharp(file), side), { raw: { width: side, height: side, channels: 3 } }) : sharp(file).removeAlpha();
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((most, x, i) => Math.max(most, Math.abs(x - b[i]!)), 0);
}

describe('CenterNet embedder on ONNX Runtime', () => {
  let onnx: Embedder;
  let tfjs: Embedder;
  beforeAll(async () => {
    [onnx, tfjs] = await Promise.all([loadCenterNetOnnxEmbedder(), loadCenterNetEmbedder()]);
  });
  afterAll(async () => {
    await Promise.all([onnx?.close(), tfjs?.close()]);
  });

  it('is the one the image workers load here, under the tfjs embedder\'s identity', async () => {
    const chosen = await loadImageEmbedder(256);
    try {
      expect(chosen.runtime).toBe('onnxruntime');
      expect(tfjs.runtime).toBe('tfjs-wasm');
      expect({ name: chosen.name, version: chosen.version, dimensions: chosen.dimensions, inputSize: chosen.inputSize }).toEqual({
        name: tfjs.name,
        version: tfjs.version,
        dimensions: 480,
        inputSize: 256,
      });
    } finally {
      await chosen.close();
    }
  });

  it('gives the tfjs path\'s vectors, for the square input the workers make and for whole photos', async () => {
    for (const name of PHOTOS) {
      for (const rgb of [await rgbOf(photo(name), 256), await rgbOf(photo(name))]) {
        const [a, b] = [await onnx.embed(rgb), await tfjs.embed(rgb)];
        expect(maxDifference(a, b), `${name} at ${rgb.width}×${rgb.height}`).toBeLessThan(1e-5);
        expect(Math.hypot(...a)).toBeCloseTo(1, 5);
      }
    }
  });

  it('embeds at another input size as the tfjs path does at that size', async () => {
    const [big, bigTfjs] = await Promise.all([loadCenterNetOnnxEmbedder({ inputSize: 320 }), loadCenterNetEmbedder({ inputSize: 320 })]);
    try {
      const rgb = await rgbOf(photo('horses.jpg'));
      expect(big.version).toBe(bigTfjs.version);
      expect(maxDifference(await big.embed(rgb), await bigTfjs.embed(rgb))).toBeLessThan(1e-5);
    } finally {
      await Promise.all([big.close(), bigTfjs.close()]);
    }
  });

  it('rejects malformed input and use after close', async () => {
    await expect(onnx.embed({ data: new Uint8Array(10), width: 4, height: 4 })).rejects.toThrow(RangeError);
    await expect(loadCenterNetOnnxEmbedder({ inputSize: 100 })).rejects.toThrow(RangeError);
    const closing = await loadCenterNetOnnxEmbedder();
    await closing.close();
    await expect(closing.embed(await rgbOf(photo('dog.jpg'), 256))).rejects.toThrow('closed');
  });

  describe.each([
    ['threads', undefined],
    ['child processes at nice 10', 10],
  ])('in the image worker pool on %s', (_mode, nice) => {
    const pool = new ImageWorkerPool(2, { embeddingInputSize: 256 }, nice);
    afterAll(() => pool.close());

    // Photos within the preview side, so the worker's decode is the file's own pixels, as rgbOf reads them.
    it('embeds files as the tfjs path does in this thread', async () => {
      const results = await Promise.all(['dog.jpg', 'person.jpg', 'coffee.png'].map((name) => pool.embed(photo(name), name.endsWith('png') ? 'png' : 'jpeg')));
      for (const [i, name] of ['dog.jpg', 'person.jpg', 'coffee.png'].entries()) {
        expect(results[i]!.model).toBe(`${tfjs.name}@${tfjs.version}`);
        expect(maxDifference(results[i]!.vector, await tfjs.embed(await rgbOf(photo(name), 256)))).toBeLessThan(1e-5);
      }
    });
  });
});
