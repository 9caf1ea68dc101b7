import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCenterNetEmbedder } from '../../src/adapters/models/centernet-embedder.js';
import type { Embedder, RgbImage } from '../../src/adapters/models/embedder.js';

const PHOTOS = ['dog.jpg', 'person.jpg', 'horses.jpg', 'chelsea.png'];
const dir = path.join('test', 'fixtures', 'photos');

async function toRgb(img: Sharp): Promise<RgbImage> {
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** Near-duplicate edits of one photo: each alone, then all of them together. */
async function edits(file: string): Promise<{ name: string; rgb: RgbImage }[]> {
  const meta = await sharp(file).metadata();
  const w = meta.width!;
  const h = meta.height!;
  const cropBox = { left: Math.round(w * 0.025), top: Math.round(h * 0.025), width: Math.round(w * 0.95), height: Math.round(h * 0.95) };
  const jpeg40 = async (img: Sharp) => sharp(await img.jpeg({ quality: 40 }).toBuffer());
  return [
    { name: 'resize60', rgb: await toRgb(sharp(file).resize(Math.round(w * 0.6))) },
    { name: 'jpeg40', rgb: await toRgb(await jpeg40(sharp(file).removeAlpha())) },
    { name: 'crop5', rgb: await toRgb(sharp(file).extract(cropBox)) },
    { name: 'bright', rgb: await toRgb(sharp(file).modulate({ brightness: 1.1 })) },
    {
      name: 'all',
      rgb: await toRgb(
        await jpeg40(sharp(file).removeAlpha().extract(cropBox).resize(Math.round(w * 0.6)).modulate({ brightness: 0.92 })),
      ),
    },
  ];
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));
const cosine = (a: Float32Array, b: Float32Array) => dot(a, b) / (norm(a) * norm(b));

async function msPerImage(embedder: Embedder, images: RgbImage[], rounds: number): Promise<number> {
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const img of images) await embedder.embed(img);
  return (performance.now() - t0) / (rounds * images.length);
}

describe('CenterNet embedder', () => {
  let embedder: Embedder;
  let originals: RgbImage[];

  beforeAll(async () => {
    const t0 = performance.now();
    embedder = await loadCenterNetEmbedder();
    console.log(`[centernet] load + warm-up: ${(performance.now() - t0).toFixed(0)} ms`);
    originals = await Promise.all(PHOTOS.map((f) => toRgb(sharp(path.join(dir, f)))));
  });
  afterAll(async () => {
    await embedder?.close();
  });

  it('gives 480-d unit vectors, deterministically, without leaking tensors', async () => {
    expect(embedder.dimensions).toBe(480);
    expect(embedder.name).toBeTruthy();
    expect(embedder.version).toContain('256');
    const before = tf.memory().numTensors;
    const a = await embedder.embed(originals[0]!);
    const b = await embedder.embed(originals[0]!);
    expect(tf.memory().numTensors).toBe(before);
    expect(a).toBeInstanceOf(Float32Array);
    expect(a.length).toBe(480);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(a.every(Number.isFinite)).toBe(true);
  });

  it('rejects malformed input', async () => {
    await expect(embedder.embed({ data: new Uint8Array(10), width: 4, height: 4 })).rejects.toThrow(RangeError);
  });

  it('finds each edited copy\'s own original as nearest neighbour (mean-centred cosine)', async () => {
    const orig = await Promise.all(originals.map((o) => embedder.embed(o)));
    const queries: { photo: number; name: string; v: Float32Array }[] = [];
    for (const [i, f] of PHOTOS.entries()) {
      for (const e of await edits(path.join(dir, f))) queries.push({ photo: i, name: e.name, v: await embedder.embed(e.rgb) });
    }
    const all = [...orig, ...queries.map((q) => q.v)];
    const mean = new Float32Array(480);
    for (const v of all) for (let k = 0; k < 480; k++) mean[k]! += v[k]! / all.length;
    const centre = (v: Float32Array) => v.map((x, k) => x - mean[k]!);
    const origC = orig.map(centre);

    let hits = 0;
    const own: number[] = [];
    const others: number[] = [];
    const rawOwn: number[] = [];
    for (const q of queries) {
      const qc = centre(q.v);
      const sims = origC.map((o) => cosine(qc, o));
      const best = sims.indexOf(Math.max(...sims));
      if (best === q.photo) hits++;
      else console.log(`[centernet] miss: ${PHOTOS[q.photo]} ${q.name} -> ${PHOTOS[best]} (${sims.map((s) => s.toFixed(2)).join(', ')})`);
      own.push(sims[q.photo]!);
      others.push(...sims.filter((_, j) => j !== q.photo));
      rawOwn.push(dot(q.v, orig[q.photo]!));
    }
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;
    console.log(
      `[centernet@256] top-1 ${hits}/${queries.length}; centred cos(edit, own) ${range(own)}; ` +
        `centred cos(edit, other) ${range(others)}; raw cos(edit, own) ${range(rawOwn)}`,
    );
    expect(hits).toBe(queries.length);
    expect(Math.min(...own)).toBeGreaterThan(Math.max(...others));
  });

  it('reports ms/image at 256² and 512²', async () => {
    const ms256 = await msPerImage(embedder, originals, 3);
    const big = await loadCenterNetEmbedder({ inputSize: 512 });
    try {
      expect(big.dimensions).toBe(480);
      const ms512 = await msPerImage(big, originals, 1);
      console.log(`[centernet] ms/image (incl. resize from 451x300–773x512, 1 thread): 256²=${ms256.toFixed(1)} 512²=${ms512.toFixed(1)}`);
      expect(ms256).toBeLessThan(1000);
    } finally {
      await big.close();
    }
  });
});
