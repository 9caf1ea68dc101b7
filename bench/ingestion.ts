import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { type IngestResult, PROGRESS_MARKS, RssSampler, ingest, rawResizeBaseline } from './lib/ingest.js';
import { type GeneratedFile, generateJpegs, generateVideos } from './lib/media-gen.js';
import { type BenchReport, fixed } from './lib/report.js';

const GOAL_VS_RAW = 0.6;
const GOAL_RSS_GROWTH = 1.5;
const VIDEOS = 3;
const MB = 1e6;

function imageCount(): number {
  const raw = process.env.BENCH_INGEST_IMAGES?.trim();
  const n = raw ? Number(raw) : 500;
  if (!Number.isInteger(n) || n < 5) throw new Error(`BENCH_INGEST_IMAGES must be an integer >= 5 (got "${raw}")`);
  return n;
}

/** A full collection and a short pause, so each run's baseline RSS is not last run's garbage. */
async function settle(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  await sleep(1000);
}

const secs = (from: number, to: number) => (to - from) / 1000;

/** End-to-end ingestion (upload → process → READY) of N JPEGs + 3 videos through the HTTP API, against sharp alone. */
export async function ingestion(): Promise<BenchReport> {
  const n = imageCount();
  const small = Math.max(1, Math.round(n / 5));
  // Two directories: as root, the embedded PostgreSQL runs as `postgres` and must reach DATA_DIR.
  const media = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-media-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  const rss = new RssSampler(100);
  try {
    const genStart = performance.now();
    const sets = {
      warmup: [...(await generateJpegs(media, 'warmup', 10, 1)), ...(await generateVideos(media, 1, 1))],
      small: [...(await generateJpegs(media, 'small', small, 2)), ...(await generateVideos(media, VIDEOS, 2))],
      large: [...(await generateJpegs(media, 'large', n, 3)), ...(await generateVideos(media, VIDEOS, 3))],
    };
    const genSeconds = secs(genStart, performance.now());
    const jpegs = sets.large.filter((f) => f.name.endsWith('.jpg'));
    const jpegBytes = jpegs.reduce((s, f) => s + f.bytes, 0);

    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' });
    loupe = await startLoupe(config);
    const issued = await loupe.container.services.auth.createUser('bench-ingest@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const run = async (name: string, files: GeneratedFile[], images: number) => {
      const r = await ingest(loupe!.url!, token, name, files);
      if (r.nImages !== images || r.nVideos !== files.length - images) {
        throw new Error(`${name}: reached ${r.nImages} images / ${r.nVideos} videos, expected ${images} / ${files.length - images}`);
      }
      return r;
    };

    // Warm-up (JIT, pools, sharp, ffmpeg/ffprobe first spawn). The raw baseline runs before and after the measured
    // runs (Loupe idle), so drifting background load shows as a spread. One common baseline RSS for both runs.
    await run('bench-warmup', sets.warmup, 10);
    const rawRun = async () => {
      await settle();
      const from = performance.now();
      const r = await rawResizeBaseline(jpegs, config.media.concurrency);
      return { ...r, peak: rss.peak(from, performance.now()) };
    };
    const rawBefore = await rawRun();
    await settle();
    const base = rss.sample();
    const smallRun = await run('bench-small', sets.small, small);
    const smallPeak = rss.peak(smallRun.t.start, smallRun.t.ready);
    await settle();
    const largeStartRss = rss.sample();
    const largeRun = await run('bench-large', sets.large, n);
    const largePeak = rss.peak(largeRun.t.start, largeRun.t.ready);
    const rawAfter = await rawRun();
    const rawRate = (2 * n) / (rawBefore.seconds + rawAfter.seconds);
    const spread = Math.abs(rawBefore.seconds - rawAfter.seconds) / Math.min(rawBefore.seconds, rawAfter.seconds);

    const { t } = largeRun;
    const uploadS = secs(t.start, t.uploaded);
    const processS = secs(t.processStart, t.ready);
    const e2eRate = n / (uploadS + processS);
    const smallE2e = secs(smallRun.t.start, smallRun.t.ready);
    const growth = (peak: number) => (peak - base) / MB;
    const row = (name: string, images: number, bytes: number, s: number, peak: number, rssGrowth: string) => [
      name, String(images), fixed(bytes / MB, 1), fixed(s, 2), fixed(images / s, 1), fixed(bytes / MB / s, 1), fixed(peak / MB, 0), rssGrowth,
    ];
    const timeline = (r: IngestResult) =>
      [...PROGRESS_MARKS.map((m) => `${m} % ${r.progressAt.has(m) ? `${fixed(secs(r.t.processStart, r.progressAt.get(m)!), 1)} s` : 'unseen'}`), `READY ${fixed(secs(r.t.processStart, r.t.ready), 1)} s`].join(', ');
    const at = (mark: number) => largeRun.progressAt.get(mark);
    const window = (from: number, to: number) => {
      const [a, b] = [from === 0 ? t.processStart : at(from), at(to)];
      return a !== undefined && b !== undefined ? fixed(rss.peak(a, b) / MB, 0) : '-';
    };
    const ratio = e2eRate / rawRate;
    const growthRatio = growth(largePeak) / Math.max(growth(smallPeak), 1);

    return {
      title: `Dataset creation from local files: ${n} JPEGs + ${VIDEOS} videos through the HTTP API`,
      notes: [
        `Media: ${n} distinct 1024x768 JPEGs (q85, ${fixed(jpegBytes / n / 1000, 0)} KB mean) + ${VIDEOS} 5 s 640x360 H.264 videos, generated before timing in ${fixed(genSeconds, 0)} s.`,
        'Loupe: startLoupe(role all), embedded PostgreSQL, pino silent, default MEDIA_CONCURRENCY / WORKER_CONCURRENCY;',
        '  the client (Node fetch, same process and event loop) follows the documented flow: new_dataset, data_files,',
        '  batches of 50 files (multipart `files`, fs.openAsBlob parts streamed from disk), process_files, GET dataset every 200 ms.',
        `Upload: first request to last 202 (videos included). Processing: process_files sent to READY seen (videos included; +-200 ms poll).`,
        'End-to-end images/s = images / (upload + processing). The N run\'s progress as polled, from process_files:',
        `  ${timeline(largeRun)} (files are processed in upload order, the videos last).`,
        `Raw baseline: sharp alone on the same ${n} JPEGs, ${config.media.concurrency} files in flight, Loupe idle: rotate + 256 px WebP thumbnail`,
        '  and rotate + <=1024 px WebP preview (effort 2) as two pipelines (two decodes; processing decodes once but also hashes,',
        '  measures quality, writes blobs and rows). Run before and after the ingestion runs; the goal uses both together.',
        `  Before vs after differ by ${fixed(100 * spread, 0)} %${spread > 0.15 ? ': NOISY (other load on the machine?); rerun before trusting the ratio' : ''}; ${os.cpus().length} CPUs.`,
        `Memory: RSS of this process (not PostgreSQL or ffmpeg children) sampled every 100 ms. After a warm-up ingestion (10 JPEGs`,
        `  + 1 video), the first raw run and a forced GC, baseline RSS ${fixed(base / MB, 0)} MB; the N/5 run (${small} JPEGs + ${VIDEOS} videos) then the N run`,
        `  (RSS ${fixed(largeStartRss / MB, 0)} MB at its start); growth = peak RSS during a run (upload to READY) - that common baseline.`,
        '  If memory grew with the number of files, 5x the files would give roughly 5x the growth; flat gives ~1x.',
        `  Within the N run (images only): peak RSS ${window(0, 25)} MB while processing 0-25 %, ${window(75, 98)} MB at 75-98 %.`,
        `Process peak RSS over the whole bench: ${fixed(rss.peak() / MB, 0)} MB. MB = 10^6 bytes.`,
      ],
      columns: ['case', 'images', 'MB', 'seconds', 'images/s', 'MB/s', 'peak RSS MB', 'RSS growth MB'],
      rows: [
        row(`raw sharp decode+thumb+preview, before`, n, jpegBytes, rawBefore.seconds, rawBefore.peak, '-'),
        row(`raw sharp decode+thumb+preview, after`, n, jpegBytes, rawAfter.seconds, rawAfter.peak, '-'),
        row(`upload (${largeRun.files} files, batches of 50)`, n, largeRun.bytes, uploadS, rss.peak(t.start, t.uploaded), '-'),
        row('processing (process_files -> READY)', n, largeRun.bytes, processS, rss.peak(t.processStart, t.ready), '-'),
        row(`end-to-end N=${n}`, n, largeRun.bytes, uploadS + processS, largePeak, fixed(growth(largePeak), 0)),
        row(`end-to-end N/5=${small} (memory reference)`, small, smallRun.bytes, smallE2e, smallPeak, fixed(growth(smallPeak), 0)),
      ],
      goals: [
        { description: `end-to-end >= ${GOAL_VS_RAW * 100} % of raw decode-and-resize throughput`, actual: `${fixed(100 * ratio, 1)} % (${fixed(e2eRate, 1)} vs ${fixed(rawRate, 1)} images/s)`, pass: ratio >= GOAL_VS_RAW },
        {
          description: `memory flat in the number of files: peak RSS growth (N) < ${GOAL_RSS_GROWTH}x growth (N/5)`,
          actual: `${fixed(growthRatio, 2)}x (${fixed(growth(largePeak), 0)} vs ${fixed(growth(smallPeak), 0)} MB; in the N run ${window(0, 25)} -> ${window(75, 98)} MB)`,
          pass: growthRatio < GOAL_RSS_GROWTH,
        },
      ],
    };
  } finally {
    rss.stop();
    await loupe?.close();
    await rm(media, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
