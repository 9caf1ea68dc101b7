import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { decodeImage } from '../src/adapters/media/decode.js';
import { areaResize, grayscale } from '../src/adapters/media/gray.js';
import { PREVIEW_SIDE, THUMBNAIL_SIDE, analyzeImage, embedderInput, encodeThumbnail } from '../src/adapters/media/image.js';
import { QUALITY_SIDE, measureContent, measureQuality } from '../src/adapters/media/image-quality.js';
import { PHASH_INPUT_SIZE, phashFromGray } from '../src/adapters/media/phash.js';
import { loadCenterNetEmbedder } from '../src/adapters/models/centernet-embedder.js';
import { loadImageEmbedder } from '../src/adapters/models/image-embedder.js';
import { intFromEnv } from './lib/env.js';
import { generateJpegs } from './lib/media-gen.js';
import { type BenchReport, fixed } from './lib/report.js';

/** Per-image CPU budget for 60 images/s on 2 cores (issue 25). */
const BUDGET_MS = 2000 / 60;

/**
 * Where an image's CPU goes in analysis, stage by stage: each stage of analyzeImage alone on the same JPEGs, one
 * image at a time, timed by process CPU (every thread: libvips', the wasm's), best of 3 passes. libvips gets one
 * thread, so a stage's CPU is not inflated by threads that wait on each other.
 */
/** The decode downscaled to the quality measures' side, as analyzeImage makes its working image. */
async function toQualitySide(decoded: Awaited<ReturnType<typeof decodeImage>>) {
  const { data, info } = await sharp(decoded.pixels, { raw: decoded.raw })
    .resize({ width: QUALITY_SIDE, height: QUALITY_SIDE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: info.channels } };
}

export async function ingestStages(): Promise<BenchReport> {
  const count = intFromEnv('BENCH_STAGE_IMAGES', 60, 10);
  const embedSide = intFromEnv('EMBEDDING_INPUT_SIZE', 256, 32);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-stages-'));
  const vipsThreads = sharp.concurrency();
  sharp.concurrency(1);
  try {
    const files = (await generateJpegs(dir, 'stage', count, 25)).map((f) => f.path);
    const embedder = await loadImageEmbedder(embedSide);
    const tfjsEmbedder = await loadCenterNetEmbedder({ inputSize: embedSide });
    const first = await decodeImage(files[0]!, 'jpeg', PREVIEW_SIDE);
    const full = { data: first.pixels, raw: first.raw };
    const work = await toQualitySide(first);
    const pixels = () => sharp(work.data, { raw: work.raw });
    const gray = grayscale(work.data, work.raw.width, work.raw.height, work.raw.channels);
    const embedInput = await embedderInput(pixels(), embedSide);

    const rows: string[][] = [];
    let stagesSum = 0;
    const stage = async (label: string, run: (file: string) => unknown, inSum = true) => {
      for (const f of files.slice(0, 3)) await run(f);
      let best = Number.POSITIVE_INFINITY;
      for (let pass = 0; pass < 3; pass++) {
        const from = process.cpuUsage();
        for (const f of files) await run(f);
        const used = process.cpuUsage(from);
        best = Math.min(best, (used.user + used.system) / 1000 / files.length);
      }
      if (inSum) stagesSum += best;
      rows.push([label, fixed(best, 2)]);
      return best;
    };
    await stage(`decode at full size (up to ${PREVIEW_SIDE} px), then downscale to ${QUALITY_SIDE} px`, async (f) => toQualitySide(await decodeImage(f, 'jpeg', PREVIEW_SIDE)));
    await stage(`thumbnail: ${THUMBNAIL_SIDE} px WebP from the decode (encodeThumbnail)`, () => encodeThumbnail(pixels()));
    await stage('grayscale (JavaScript)', () => grayscale(work.data, work.raw.width, work.raw.height, work.raw.channels));
    await stage('blur + brightness (JavaScript)', () => measureQuality(gray, work.raw.width, work.raw.height));
    await stage('colour spread + entropy (JavaScript; issue 29)', () => measureContent(work.data, gray, work.raw.channels));
    await stage('pixel hash: sha256 of the full-size decode (issue 29)', () => createHash('sha256').update(full.data).digest('hex'));
    await stage(`(not in production for this size) pixel hash by a second full-size decode, as for images over ${PREVIEW_SIDE} px`, async (f) => {
      const { data } = await sharp(f, { autoOrient: true, pages: 1 }).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      return createHash('sha256').update(data).digest('hex');
    }, false);
    await stage(`perceptual hash: ${PHASH_INPUT_SIZE}x${PHASH_INPUT_SIZE} area downscale + DCT`, () =>
      phashFromGray(areaResize(gray, work.raw.width, work.raw.height, PHASH_INPUT_SIZE, PHASH_INPUT_SIZE)),
    );
    await stage(`embedding input: ${embedSide}x${embedSide} RGB (sharp)`, () => embedderInput(pixels(), embedSide));
    const embedMs = await stage(`embedding: CenterNet backbone at ${embedSide} px (ONNX Runtime, 1 thread; production)`, () => embedder.embed({ data: embedInput, width: embedSide, height: embedSide }));
    await stage(`(not in production where ONNX Runtime loads) the same on tfjs wasm, 1 thread`, () => tfjsEmbedder.embed({ data: embedInput, width: embedSide, height: embedSide }), false);
    rows.push(['sum of the stages', fixed(stagesSum, 2)]);
    await stage('analyzeImage, whole, without the embedder', (f) => analyzeImage(f, 'jpeg'), false);
    const total = await stage('analyzeImage, whole (stages overlapped as production runs them)', (f) => analyzeImage(f, 'jpeg', undefined, embedder), false);
    await embedder.close();
    await tfjsEmbedder.close();

    return {
      title: `Ingestion stages: CPU ms per 1024x768 JPEG, each stage alone (${count} images)`,
      notes: [
        `Images: ${count} generated 1024x768 JPEGs (bench/lib/media-gen.ts, q85). Each stage runs over all of them one at a time, 3 warm-up`,
        '  images first; CPU = process user + system time (all threads) / images, best of 3 passes; libvips limited to 1 thread.',
        `  Stages after the decode work on the first image's decoded pixels (${work.raw.width}x${work.raw.height}), as analyzeImage does.`,
        `Budget: 60 images/s on 2 cores leaves ${fixed(BUDGET_MS, 1)} ms of CPU per image for everything (upload, analysis, rows, index).`,
        `  Upload, blob and row writes, the index and PostgreSQL are not here: bench/ingestion.ts reports the whole process's CPU per image.`,
        `sharp's default libvips threads here: ${vipsThreads}; ${os.cpus().length} CPUs; load average at the end ${os.loadavg().map((l) => fixed(l, 2)).join(' ')}.`,
      ],
      columns: ['stage', 'CPU ms/image'],
      rows,
      goals: [
        { description: `embedding alone within the whole per-image budget (${fixed(BUDGET_MS, 1)} ms)`, actual: `${fixed(embedMs, 1)} ms`, pass: embedMs <= BUDGET_MS },
        { description: `analysis within the whole per-image budget (${fixed(BUDGET_MS, 1)} ms)`, actual: `${fixed(total, 1)} ms`, pass: total <= BUDGET_MS },
      ],
    };
  } finally {
    sharp.concurrency(vipsThreads);
    await rm(dir, { recursive: true, force: true });
  }
}
