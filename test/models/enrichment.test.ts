import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_MODEL_INFO,
  ENRICHMENT_TYPES,
  EnrichmentImageError,
  type EnrichmentPool,
  type ImageEnrichment,
  createEnrichmentPool,
  enrichmentRuntimes,
} from '../../src/adapters/models/enrichment/index.js';
import * as tf from '@tensorflow/tfjs';
import { loadCenterNetEmbedder } from '../../src/adapters/models/centernet-embedder.js';
import { loadCenterNetDetector } from '../../src/adapters/models/enrichment/centernet-detector.js';
import { colourName } from '../../src/adapters/models/enrichment/colors.js';
import { cropRgb, decodeInput } from '../../src/adapters/models/enrichment/image-input.js';
import { composeCaption } from '../../src/adapters/models/enrichment/grounded-captioner.js';
import { nonMaxSuppression } from '../../src/adapters/models/enrichment/nms.js';
import { positionPhrase, sizeWord } from '../../src/adapters/models/enrichment/object-captioner.js';

const photo = (name: string) => readFile(path.join('test', 'fixtures', 'photos', name));
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const labels = (r: ImageEnrichment) => (r.objects ?? []).map((o) => o.label);

function textImage(lines: string[]): Promise<Buffer> {
  const text = lines.map((l, i) => `<text x="50" y="${110 + i * 110}" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="bold" fill="#111">${l}</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${80 + lines.length * 110}"><rect width="100%" height="100%" fill="#fafafa"/>${text.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('enrichment pure parts', () => {
  it('suppresses same-class overlaps and one peak decoded as several classes, but keeps a rider on a bicycle', () => {
    const box = (x: number, y: number, w: number, h: number) => ({ x, y, width: w, height: h });
    const kept = nonMaxSuppression(
      [
        { classId: 16, score: 0.5, box: box(0, 0, 100, 100) }, // dog
        { classId: 16, score: 0.4, box: box(5, 5, 100, 100) }, // same dog again
        { classId: 19, score: 0.35, box: box(0, 0, 100, 100) }, // the same peak as a cow
        { classId: 0, score: 0.6, box: box(20, -40, 60, 120) }, // a person overlapping it
      ],
      0.5,
      0.7,
      10,
    );
    expect(kept.map((k) => k.classId)).toEqual([0, 16]);
  });

  it('names colours and places boxes in plain words', () => {
    expect([colourName(250, 250, 250), colourName(10, 10, 10), colourName(128, 128, 128)]).toEqual(['white', 'black', 'gray']);
    expect([colourName(220, 30, 30), colourName(30, 160, 40), colourName(30, 60, 220), colourName(240, 220, 40)]).toEqual(['red', 'green', 'blue', 'yellow']);
    expect(positionPhrase({ x: 0, y: 0, width: 10, height: 10 }, 300, 300)).toBe('at the top left');
    expect(positionPhrase({ x: 140, y: 140, width: 20, height: 20 }, 300, 300)).toBe('in the centre');
    expect(sizeWord({ x: 0, y: 0, width: 200, height: 200 }, 300, 300)).toBe('large');
  });

  it('composes a caption only from what was measured', () => {
    const stats = { brightness: 0.5, contrast: 0.2, colourfulness: 0.3, colours: [{ name: 'green', share: 0.6 }] };
    const found = composeCaption({ objects: [{ label: 'person', score: 0.6 }, { label: 'person', score: 0.5 }, { label: 'dog', score: 0.4 }], text: 'SALE', faces: 1, stats, minScore: 0.3 });
    expect(found.caption).toBe('Two people and a dog, one face visible, in a mostly green image; text reads "SALE".');
    expect(found.evidence).toMatchObject({ objects: { person: { count: 2 }, dog: { count: 1 } }, faces: 1, ocr_text: 'SALE' });
    // Face detection did not run: the caption must not claim there are no faces.
    const empty = composeCaption({ objects: [], text: '', faces: null, stats: { ...stats, contrast: 0 }, minScore: 0.3 });
    expect(empty.caption).toBe('No objects or text detected, in a plain green image.');
  });
});

describe('CenterNet detector in this thread', () => {
  it('embeds crops in batches exactly as the media embedder does, and leaks no tensors', async () => {
    const embedder = await loadCenterNetEmbedder({ inputSize: 256 });
    const detector = await loadCenterNetDetector();
    try {
      const { rgb } = await decodeInput(await photo('dog.jpg'));
      const before = tf.memory().numTensors;
      const objects = await detector.detect(rgb);
      const crops = objects.map((o) => cropRgb(rgb, o.box));
      const batched = await detector.embedCrops([...crops, ...crops, ...crops], 256); // more than one batch of 8
      expect(tf.memory().numTensors).toBe(before);
      expect(batched).toHaveLength(crops.length * 3);
      for (const [i, crop] of crops.entries()) {
        const single = await embedder.embed(crop);
        expect(dot(Array.from(single), Array.from(batched[i]!))).toBeGreaterThan(0.9999);
        expect(dot(Array.from(single), Array.from(batched[i + crops.length * 2]!))).toBeGreaterThan(0.9999);
      }
    } finally {
      await detector.close();
      await embedder.close();
    }
  });
});

describe('enrichment pool (models in a worker thread)', () => {
  let pool: EnrichmentPool;
  let dog: ImageEnrichment;
  let dogSmall: ImageEnrichment;

  beforeAll(async () => {
    pool = createEnrichmentPool({ threads: 1 });
    const t0 = performance.now();
    dog = await pool.enrich(await photo('dog.jpg'), ['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES']);
    console.log(`[enrichment] first dog.jpg (loads detector, embedder, OCR, faces): ${(performance.now() - t0).toFixed(0)} ms`);
    const resized = await sharp(await photo('dog.jpg')).resize(480).jpeg({ quality: 80 }).toBuffer();
    dogSmall = await pool.enrich(resized, ['OBJECT_DETECTION']);
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('reports which runtimes can run here and names every built-in model', () => {
    const runtimes = enrichmentRuntimes();
    for (const type of ENRICHMENT_TYPES) {
      expect(runtimes[type]).toEqual({ available: true });
      expect(BUILTIN_MODEL_INFO[type].name).toBeTruthy();
      expect(BUILTIN_MODEL_INFO[type].version).toBeTruthy();
    }
    expect(BUILTIN_MODEL_INFO.CAPTION_IMAGES.description).toMatch(/not a neural/i);
  });

  it('finds a dog and a bicycle on dog.jpg, with boxes inside the image', () => {
    console.log('[enrichment] dog.jpg:', dog.objects?.map((o) => `${o.label} ${o.score} ${JSON.stringify(o.box)}`).join('; '));
    expect(dog.width).toBe(768);
    expect(dog.height).toBe(576);
    expect(labels(dog)).toEqual(expect.arrayContaining(['dog', 'bicycle']));
    for (const o of dog.objects!) {
      expect(o.score).toBeGreaterThanOrEqual(0.3);
      expect(o.box.x).toBeGreaterThanOrEqual(0);
      expect(o.box.y).toBeGreaterThanOrEqual(0);
      expect(o.box.x + o.box.width).toBeLessThanOrEqual(768);
      expect(o.box.y + o.box.height).toBeLessThanOrEqual(576);
    }
    // The dog sits in the lower left of the photo.
    const d = dog.objects!.find((o) => o.label === 'dog')!;
    expect(d.box.x + d.box.width / 2).toBeLessThan(768 / 2);
    expect(d.box.y + d.box.height / 2).toBeGreaterThan(576 / 2);
  });

  it('gives each object a 480-d unit crop embedding; the dog crops of dog.jpg and of a shrunk copy are close', () => {
    for (const o of [...dog.objects!, ...dogSmall.objects!]) {
      expect(o.embedding).toHaveLength(480);
      expect(Math.sqrt(dot(o.embedding, o.embedding))).toBeCloseTo(1, 4);
    }
    const a = dog.objects!.find((o) => o.label === 'dog')!.embedding;
    const b = dogSmall.objects!.find((o) => o.label === 'dog')?.embedding;
    expect(b, `dog not found on the shrunk copy: ${labels(dogSmall).join(', ')}`).toBeDefined();
    const same = dot(a, b!);
    const others = dog.objects!.filter((o) => o.label !== 'dog').map((o) => dot(a, o.embedding));
    console.log(`[enrichment] cos(dog crop, shrunk dog crop) ${same.toFixed(3)}; cos(dog crop, other crops) ${others.map((c) => c.toFixed(3)).join(', ')}`);
    expect(same).toBeGreaterThan(0.9);
    expect(same).toBeGreaterThan(Math.max(...others));
  });

  it('captions each object with its label, size, position and colour', () => {
    for (const o of dog.objects!) {
      expect(o.caption).toContain(o.label);
      expect(o.caption).toMatch(/\b(small|medium-sized|large)\b/);
      expect(o.caption).toMatch(/\b(left|right|top|bottom|centre)\b/);
      expect(o.dominant_color).toMatch(/^[a-z]+$/);
      expect(o.caption).toContain(o.dominant_color!);
    }
  });

  it('captions dog.jpg with what was detected, keeping the evidence', () => {
    console.log(`[enrichment] dog.jpg caption: ${dog.caption}`);
    expect(dog.caption).toMatch(/\bdog\b/);
    expect(dog.caption).toMatch(/\bbicycle\b/);
    expect(dog.caption_evidence).toMatchObject({ objects: { dog: { count: 1 }, bicycle: { count: expect.any(Number) } } });
    expect(dog.caption_evidence).toHaveProperty('brightness');
  });

  it('finds persons on kite.jpg', async () => {
    const kite = await pool.enrich(await photo('kite.jpg'), ['OBJECT_DETECTION']);
    console.log(`[enrichment] kite.jpg: ${labels(kite).join(', ')}`);
    expect(labels(kite).filter((l) => l === 'person').length).toBeGreaterThanOrEqual(3);
    expect(kite).not.toHaveProperty('caption');
  });

  it('finds nothing on a plain synthetic image and says so', async () => {
    const plain = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 200 } } }).jpeg().toBuffer();
    const r = await pool.enrich(plain, ['OBJECT_DETECTION', 'CAPTION_IMAGES', 'FACE_DETECTION']);
    console.log(`[enrichment] plain caption: ${r.caption}`);
    expect(r.objects).toEqual([]);
    expect(r.faces).toEqual([]);
    expect(r.caption).toMatch(/^No objects, faces or text detected/);
    expect(r.caption).toMatch(/blue/);
  });

  it('reads clear text, and returns only the asked fields', async () => {
    const r = await pool.enrich(await textImage(['GRAND SALE', 'Open daily']), ['OCR_TEXT']);
    console.log(`[enrichment] OCR: ${JSON.stringify(r.ocr?.text)} (${r.ocr?.confidence})`);
    expect(r.ocr!.text).toContain('GRAND SALE');
    expect(r.ocr!.text).toContain('Open daily');
    expect(r.ocr!.confidence).toBeGreaterThan(70);
    const grand = r.ocr!.words.find((w) => w.text === 'GRAND')!;
    expect(grand.box.x).toBeGreaterThanOrEqual(40);
    expect(grand.box.x).toBeLessThan(80);
    expect(Object.keys(r).sort()).toEqual(['height', 'ocr', 'width']);
  });

  it('reads text from a WebP stored sideways with an EXIF orientation, in display coordinates', async () => {
    const upright = await textImage(['EXIT 42']);
    // Stored rotated 90° clockwise with orientation 8 (display = rotate 90° anticlockwise), as phones do.
    const sideways = await sharp(upright).rotate(90).withMetadata({ orientation: 8 }).webp({ quality: 90 }).toBuffer();
    const r = await pool.enrich(sideways, ['OCR_TEXT']);
    expect([r.width, r.height]).toEqual([900, 190]);
    expect(r.ocr!.text).toContain('EXIT 42');
    const exit = r.ocr!.words.find((w) => w.text === 'EXIT')!;
    expect(exit.box.width).toBeGreaterThan(exit.box.height);
  });

  it('finds a face on astronaut.png', async () => {
    const r = await pool.enrich(await photo('astronaut.png'), ['FACE_DETECTION']);
    expect(r.faces!.length).toBe(1);
    const f = r.faces![0]!;
    expect(f.score).toBeGreaterThan(0.8);
    // The face is in the upper middle of the 512² photo.
    expect(f.box.x + f.box.width / 2).toBeGreaterThan(150);
    expect(f.box.x + f.box.width / 2).toBeLessThan(300);
    expect(f.box.y + f.box.height / 2).toBeLessThan(200);
  });

  it('rejects an undecodable image with a clear error, then goes on working', async () => {
    await expect(pool.enrich(new Uint8Array([1, 2, 3, 4]), ['OBJECT_DETECTION'])).rejects.toThrow(EnrichmentImageError);
    await expect(pool.enrich(new Uint8Array(0), ['OBJECT_DETECTION'])).rejects.toThrow(/empty/);
    const again = await pool.enrich(await photo('dog.jpg'), ['OBJECT_DETECTION']);
    expect(labels(again)).toContain('dog');
  });

  it('rejects on abort, at once and for an already-aborted signal, and drops the cancelled work', async () => {
    const bytes = await photo('kite.jpg');
    await expect(pool.enrich(bytes, ['OBJECT_DETECTION'], AbortSignal.abort(new Error('stop')))).rejects.toThrow('stop');
    const controller = new AbortController();
    const running = pool.enrich(bytes, ['OBJECT_DETECTION', 'OCR_TEXT'], controller.signal);
    const queued = new AbortController();
    const behind = pool.enrich(bytes, ['OBJECT_DETECTION'], queued.signal);
    setTimeout(() => {
      controller.abort(new Error('user cancelled'));
      queued.abort(new Error('user cancelled'));
    }, 20);
    const t0 = performance.now();
    await expect(running).rejects.toThrow('user cancelled');
    await expect(behind).rejects.toThrow('user cancelled');
    expect(performance.now() - t0).toBeLessThan(500);
    const after = await pool.enrich(await photo('dog.jpg'), ['OBJECT_DETECTION']);
    expect(labels(after)).toContain('bicycle');
  });

  it('replaces a worker that died, failing only the requests it held', async () => {
    const slots = (pool as unknown as { pool: { workers: Array<{ worker: { terminate(): Promise<number> } }> } }).pool.workers;
    expect(slots).toHaveLength(1);
    const held = pool.enrich(await photo('kite.jpg'), ['OBJECT_DETECTION']);
    await slots[0]!.worker.terminate();
    await expect(held).rejects.toThrow(/exited/);
    const after = await pool.enrich(await photo('dog.jpg'), ['OBJECT_DETECTION']);
    expect(labels(after)).toContain('dog');
  });
});
