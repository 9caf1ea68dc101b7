import os from 'node:os';
import { EnrichmentRunner } from '../src/adapters/models/enrichment/enrichment-runner.js';
import { type EnrichmentType, createEnrichmentPool } from '../src/adapters/models/enrichment/index.js';
import { cropRgb, decodeInput } from '../src/adapters/models/enrichment/image-input.js';
import { PHOTOS, photoVariants } from './lib/photo-variants.js';
import { type BenchReport, fixed } from './lib/report.js';

const GOAL_MS = 150;

function count(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 2) throw new Error(`${name} must be an integer >= 2`);
  return n;
}

interface Cost {
  /** Wall-clock ms per item. */
  wall: number;
  /** CPU ms per item used by the whole process (this thread, plus tesseract's thread and libuv's for OCR and decoding). */
  cpu: number;
}

/** Runs `fn` on each item in turn; wall and CPU time per item. */
async function timeEach<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<Cost> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const item of items) await fn(item);
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / items.length, cpu: (c.user + c.system) / 1000 / items.length };
}

/** Images/s through a pool of `threads`, all images in flight at once (the pool queues per worker). */
async function poolRate(images: Buffer[], types: EnrichmentType[], threads: number): Promise<{ rate: number; startSeconds: number; rssMb: number }> {
  const rss0 = process.memoryUsage().rss;
  const pool = createEnrichmentPool({ threads });
  try {
    const s0 = performance.now();
    // One untimed image per thread loads that thread's models.
    await Promise.all(images.slice(0, threads).map((b) => pool.enrich(b, types)));
    const startSeconds = (performance.now() - s0) / 1000;
    const t0 = performance.now();
    await Promise.all(images.map((b) => pool.enrich(b, types)));
    return { rate: images.length / ((performance.now() - t0) / 1000), startSeconds, rssMb: (process.memoryUsage().rss - rss0) / 1e6 };
  } finally {
    await pool.close();
  }
}

/**
 * Per-model cost of the built-in enrichment models on real photos (the fixtures, cropped, resized to ~1024 px, mirrored,
 * re-lit): ms/image on one thread for each model alone and each enrichment type end to end, then images/s with a
 * 2-thread pool. BENCH_ENRICH_IMAGES (default 200) photos; the slow rows (OCR and the captioners, which run OCR) use the
 * first BENCH_ENRICH_SLOW_IMAGES (default 50) on one thread.
 */
export async function enrichmentModels(): Promise<BenchReport> {
  const n = count('BENCH_ENRICH_IMAGES', 200);
  const slowN = Math.min(n, count('BENCH_ENRICH_SLOW_IMAGES', 50));
  const loadBefore = os.loadavg();
  const images = await photoVariants(n);
  const slow = images.slice(0, slowN);
  const decoded = await Promise.all(images.map((b) => decodeInput(b)));
  const rows: string[][] = [];
  const row = (what: string, count: number, cost: Cost, note = '') =>
    rows.push([what, String(count), fixed(cost.wall, 1), fixed(cost.cpu, 1), fixed(1000 / cost.wall, 2), note]);

  const runner = new EnrichmentRunner();
  const rss0 = process.memoryUsage().rss;
  const l0 = performance.now();
  const [detector, faces, ocr] = [await runner.detector(), await runner.faces(), await runner.ocr()];
  const embeddingSize = runner.embeddingInputSize;
  const loadMs = performance.now() - l0;
  await runner.enrich(images[0]!, ['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES', 'OCR_TEXT', 'FACE_DETECTION']);
  const modelsMb = (process.memoryUsage().rss - rss0) / 1e6;

  row('decode (sharp, EXIF-rotated RGB)', n, await timeEach(images, (b) => decodeInput(b)));
  // Detection and the crops of each image timed back to back, so all see the same load on the shared machine.
  const detect: Cost = { wall: 0, cpu: 0 };
  const crop: Cost = { wall: 0, cpu: 0 };
  const batched: Cost = { wall: 0, cpu: 0 };
  const add = (to: Cost, c: Cost, k: number) => {
    to.wall += c.wall * k;
    to.cpu += c.cpu * k;
  };
  let crops = 0;
  for (const d of decoded) {
    let objects: Awaited<ReturnType<typeof detector.detect>> = [];
    add(detect, await timeEach([d], async () => (objects = await detector.detect(d.rgb))), 1);
    const images = objects.map((o) => cropRgb(d.rgb, o.box));
    if (images.length === 0) continue;
    add(crop, await timeEach(images, (c) => detector.embedCrops([c], embeddingSize)), images.length);
    add(batched, await timeEach([images], (all) => detector.embedCrops(all, embeddingSize)), 1);
    crops += images.length;
  }
  const per = (c: Cost, k: number): Cost => ({ wall: c.wall / k, cpu: c.cpu / k });
  const sum = (a: Cost, b: Cost): Cost => ({ wall: a.wall + b.wall, cpu: a.cpu + b.cpu });
  const detectCost = per(detect, n);
  const cropCost = per(crop, Math.max(1, crops));
  const objectsPerImage = crops / n;
  row(`detection alone (CenterNet ${detector.inputSize}²)`, n, detectCost);
  row('one crop embedding (CenterNet 256², backbone only)', crops, cropCost, 'per crop, one at a time');
  row('crop embeddings batched (up to 8 per run)', crops, per(batched, Math.max(1, crops)), 'per crop');
  const goal = sum(detectCost, cropCost);
  row('detection + one crop embedding', n, goal, 'goal row');
  const allCrops = per(sum(detect, batched), n);
  row('detection + all crop embeddings (batched)', n, allCrops, `${fixed(objectsPerImage, 1)} objects/image`);
  row('faces alone (TinyFaceDetector 416²)', n, await timeEach(decoded, (d) => faces.detect(d.rgb)));
  row('OCR alone (tesseract LSTM, eng)', slowN, await timeEach(slow, (b) => ocr.recognize(b)));
  const types: Array<[string, EnrichmentType[]]> = [
    ['OBJECT_DETECTION end to end', ['OBJECT_DETECTION']],
    ['FACE_DETECTION end to end', ['FACE_DETECTION']],
    ['OCR_TEXT end to end', ['OCR_TEXT']],
    ['CAPTION_OBJECTS end to end (det + crops + OCR)', ['OBJECT_DETECTION', 'CAPTION_OBJECTS']],
    ['CAPTION_IMAGES end to end (det + OCR + faces)', ['CAPTION_IMAGES']],
  ];
  for (const [what, t] of types) {
    const set = t.includes('OCR_TEXT') || t.some((x) => x.startsWith('CAPTION')) ? slow : images;
    row(`${what}, 1 thread`, set.length, await timeEach(set, (b) => runner.enrich(b, t)));
  }
  await runner.close();

  const poolRows: Array<[string, EnrichmentType[]]> = [
    ['OBJECT_DETECTION', ['OBJECT_DETECTION']],
    ['all five types', ['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES', 'OCR_TEXT', 'FACE_DETECTION']],
  ];
  const starts: string[] = [];
  const memory: string[] = [];
  for (const [what, t] of poolRows) {
    const { rate, startSeconds, rssMb } = await poolRate(images, t, 2);
    memory.push(`${what}: ${fixed(rssMb, 0)} MB`);
    rows.push([`${what}, 2-thread pool`, String(n), fixed(1000 / rate, 1), '', fixed(rate, 2), 'wall time / images']);
    starts.push(`${what}: ${fixed(startSeconds, 1)} s`);
  }
  const loadAfter = os.loadavg();
  return {
    title: 'Enrichment models (CPU, tfjs-wasm and tesseract wasm)',
    notes: [
      `${n} JPEGs made from the ${PHOTOS.length} fixture photos (crop 75–100%, long side 900–1100 px, mirrored half the time, re-lit, q80–92); ${os.cpus().length} cores.`,
      `Load average (1, 5, 15 min) before: ${loadBefore.map((v) => v.toFixed(2)).join(', ')}; after: ${loadAfter.map((v) => v.toFixed(2)).join(', ')} (the machine is shared).`,
      `One-thread rows run in this process; all models loaded in ${fixed(loadMs, 0)} ms, adding ${fixed(modelsMb, 0)} MB RSS after one image. Pool start (threads spawned, models loaded, first image each): ${starts.join('; ')}.`,
      `RSS the 2-thread pool added (threads with their models and tesseract workers, measured at the end of each run): ${memory.join('; ')}.`,
    ],
    columns: ['what', 'images', 'wall ms/image', 'CPU ms/image', 'images/s', 'note'],
    rows,
    goals: [
      {
        description: `detection + crop embedding ≤ ${GOAL_MS} ms/image on one core (detection + one crop, wall clock)`,
        actual: `${fixed(goal.wall, 1)} ms wall, ${fixed(goal.cpu, 1)} ms CPU; with all ${fixed(objectsPerImage, 1)} crops ${fixed(allCrops.wall, 1)} ms wall`,
        pass: goal.wall <= GOAL_MS,
      },
    ],
  };
}
