import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { DatabaseHandle } from '../src/adapters/db/database.js';
import { loadConfig } from '../src/config.js';
import { embedderAloneBaseline } from './lib/embed-baseline.js';
import { type CpuUse, cpuMeter } from './lib/cpu.js';
import { type IngestResult, PROGRESS_MARKS, RssSampler, rawResizeBaseline } from './lib/ingest.js';
import { type ClientRun, IngestClient } from './lib/ingest-client.js';
import { type GeneratedFile, convertImages, copiesOf, generateJpegs, generateVideos } from './lib/media-gen.js';
import { type BenchReport, fixed } from './lib/report.js';
import { type ServerChild, benchUser, openSideDatabase, startServerChild } from './lib/server-child.js';

const GOAL_RATE = 60;
const GOAL_VS_RAW = 0.4;
const GOAL_PEAK_RSS = 1.2;
const VIDEOS = 3;
const MB = 1e6;

const HEIC_FIXTURE = new URL('../test/fixtures/photos/small.heic', import.meta.url).pathname;

/** Images per input format reported beside the JPEGs (BENCH_INGEST_FORMAT_IMAGES, default 200; at most the smallest N). */
const FORMAT_IMAGES = Number(process.env.BENCH_INGEST_FORMAT_IMAGES?.trim() || 200);

/** BENCH_INGEST_IMAGES: one count or a comma-separated list (default 500,2000); sorted, duplicates dropped. */
function imageCounts(): number[] {
  const raw = process.env.BENCH_INGEST_IMAGES?.trim() || '500,2000';
  const counts = raw.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 5)) throw new Error(`BENCH_INGEST_IMAGES must be integers >= 5, comma-separated (got "${raw}")`);
  return [...new Set(counts)].sort((a, b) => a - b);
}

/** A full collection in the bench and in the server, and a short pause, so each run's baseline RSS is not last run's garbage. */
async function settle(server: ServerChild): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  server.gc();
  await sleep(1000);
}

const secs = (from: number, to: number) => (to - from) / 1000;
/** CPU of a run per item, in ms: the total, then the server's (its process), the image workers', PostgreSQL's and the client's shares. */
const cpuPer = (cpu: RunCpu, items: number) =>
  `${fixed((1000 * (cpu.self + cpu.workers + cpu.postgres + cpu.client)) / items, 1)} ms (server ${fixed((1000 * cpu.self) / items, 1)}; image workers ${fixed((1000 * cpu.workers) / items, 1)}; PostgreSQL ${fixed((1000 * cpu.postgres) / items, 1)}; the client ${fixed((1000 * cpu.client) / items, 1)})`;
/** A run's CPU: the meter's shares (the server's process, its workers, PostgreSQL) and the client process's. */
type RunCpu = CpuUse & { client: number };
const withClient = (cpu: CpuUse, run: ClientRun): RunCpu => ({ ...cpu, client: run.clientCpu });
/** A database timestamp (wall clock) on the performance.now() scale. */
const perfAt = (d: Date) => d.getTime() - performance.timeOrigin;

interface SizeResult {
  n: number;
  jpegs: GeneratedFile[];
  jpegBytes: number;
  rawBefore: { seconds: number; peak: number };
  rawAfter: { seconds: number; peak: number };
  embed: { seconds: number; decodeSeconds: number; startSeconds: number; workers: number; peak: number };
  run: ClientRun;
  /** performance.now() when the last image's media row was written (the videos, uploaded last, may still run). */
  imagesDone: number;
  /** performance.now() of the index stage's start (its version forked) and of the commit (task end_time). */
  indexStart: number;
  commitStart: number;
  startRss: number;
  peak: number;
  /** CPU seconds of the run, upload to READY: the server, its workers, PostgreSQL and the client. */
  cpu: RunCpu;
}

/**
 * Indexing throughput end to end: dataset creation (upload → media stage with embeddings → index stage → READY)
 * of N JPEGs + 3 videos through the HTTP API, for each N, against sharp alone and the embedder alone.
 */
export async function ingestion(): Promise<BenchReport> {
  const sizes = imageCounts();
  const largest = sizes[sizes.length - 1]!;
  // Memory reference for the largest N: the smallest N when it is at most a third of it, else an extra N/5 run.
  const refFromSizes = sizes.length > 1 && sizes[0]! * 3 <= largest;
  const refN = refFromSizes ? sizes[0]! : Math.max(1, Math.round(largest / 5));
  // Two directories: as root, the embedded PostgreSQL runs as `postgres` and must reach DATA_DIR.
  const media = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-media-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let server: ServerChild | null = null;
  let side: DatabaseHandle | null = null;
  let client: IngestClient | null = null;
  // The baselines run in this process: their memory is this process's; the server's is sampled once it runs.
  const ownRss = new RssSampler(100);
  const samplers = [ownRss];
  try {
    const genStart = performance.now();
    const warmup = [...(await generateJpegs(media, 'warmup', 10, 1)), ...(await generateVideos(media, 1, 1))];
    const refSet = refFromSizes ? null : [...(await generateJpegs(media, 'ref', refN, 2)), ...(await generateVideos(media, VIDEOS, 2))];
    const sets: GeneratedFile[][] = [];
    for (const [i, n] of sizes.entries()) sets.push([...(await generateJpegs(media, `n${n}`, n, 3 + i)), ...(await generateVideos(media, VIDEOS, 3 + i))]);
    // Other inputs beside the JPEGs, no goal: the same pictures as PNG and WebP, the one HEIC fixture under many names
    // (sharp cannot write HEVC, and no other encoder ships in npm), and the videos alone.
    const formatCount = Math.min(FORMAT_IMAGES, sizes[0]!);
    const firstJpegs = sets[0]!.filter((f) => f.name.endsWith('.jpg')).slice(0, formatCount);
    const formatSets: Array<{ label: string; files: GeneratedFile[]; images: number }> = [
      { label: `PNG (${formatCount} of the 1024x768 pictures)`, files: await convertImages(firstJpegs, path.join(media, 'png'), 'png'), images: formatCount },
      { label: `WebP q85 (the same ${formatCount})`, files: await convertImages(firstJpegs, path.join(media, 'webp'), 'webp'), images: formatCount },
      { label: `HEIC (${formatCount} copies of the 64x48 fixture)`, files: await copiesOf(HEIC_FIXTURE, path.join(media, 'heic'), formatCount), images: formatCount },
      { label: `${VIDEOS} videos alone (5 s 640x360 H.264)`, files: await generateVideos(path.join(media, 'videos'), VIDEOS, 90), images: 0 },
    ];
    const genSeconds = secs(genStart, performance.now());

    // The server in a process of its own, as deployed: the bench's baselines and bookkeeping stay out of its heap and CPU.
    const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', LOUPE_ROLE: 'all' };
    const config = loadConfig(env);
    server = await startServerChild(env);
    const rss = new RssSampler(100, server.pid);
    samplers.push(rss);
    side = await openSideDatabase(dataDir);
    client = IngestClient.start();
    const db = side.db;
    const { token } = await benchUser(side, dataDir, 'bench-ingest@example.com');
    const settled = () => settle(server!);
    const run = async (name: string, files: GeneratedFile[], images: number) => {
      const r = await client!.ingest(server!.url, token, name, files);
      if (r.nImages !== images || r.nVideos !== files.length - images) {
        throw new Error(`${name}: reached ${r.nImages} images / ${r.nVideos} videos, expected ${images} / ${files.length - images}`);
      }
      return r;
    };
    const jpegsOf = (files: GeneratedFile[]) => files.filter((f) => f.name.endsWith('.jpg'));
    const rawRun = async (jpegs: GeneratedFile[]) => {
      await settled();
      const from = performance.now();
      const r = await rawResizeBaseline(jpegs, config.media.concurrency);
      return { ...r, peak: ownRss.peak(from, performance.now()) };
    };

    // Warm-up (JIT, pools, sharp, ffmpeg/ffprobe first spawn, the embedder in every image worker).
    await run('bench-warmup', warmup, 10);

    // Baselines first, with Loupe idle: raw sharp (again after the ingestion runs) and the embedder alone.
    const before = new Map<number, { raw: SizeResult['rawBefore']; embed: SizeResult['embed'] }>();
    for (const [i, n] of sizes.entries()) {
      const jpegs = jpegsOf(sets[i]!);
      const raw = await rawRun(jpegs);
      await settled();
      const from = performance.now();
      const e = await embedderAloneBaseline(jpegs, { workers: config.media.concurrency, inputSize: config.embeddingInputSize });
      before.set(n, { raw, embed: { ...e, peak: ownRss.peak(from, performance.now()) } });
    }

    // Ingestion runs, smallest first; one common baseline RSS for all of them.
    await settled();
    const base = rss.sample();
    let refRun: IngestResult | null = null;
    if (refSet) {
      refRun = await run(`bench-ref-${refN}`, refSet, refN);
    }
    const results: SizeResult[] = [];
    for (const [i, n] of sizes.entries()) {
      await settled();
      const startRss = rss.sample();
      const cpuOf = cpuMeter(server.pid);
      const r = await run(`bench-${n}`, sets[i]!, n);
      const cpu = withClient(cpuOf(), r);
      const version = await db.selectFrom('versions').select('created_at').where('task_id', '=', r.taskId).executeTakeFirstOrThrow();
      const task = await db.selectFrom('tasks').select('end_time').where('id', '=', r.taskId).executeTakeFirstOrThrow();
      const lastImage = await db
        .selectFrom('upload_files as f')
        .innerJoin('media as m', 'm.id', 'f.media_id')
        .select((eb) => eb.fn.max('m.created_at').as('at'))
        .where('f.dataset_id', '=', r.datasetId)
        .where('f.kind', '=', 'image')
        .executeTakeFirstOrThrow();
      const jpegs = jpegsOf(sets[i]!);
      results.push({
        n,
        jpegs,
        jpegBytes: jpegs.reduce((s, f) => s + f.bytes, 0),
        rawBefore: before.get(n)!.raw,
        rawAfter: { seconds: 0, peak: 0 },
        embed: before.get(n)!.embed,
        run: r,
        imagesDone: lastImage.at ? perfAt(new Date(lastImage.at)) : perfAt(version.created_at),
        indexStart: perfAt(version.created_at),
        commitStart: task.end_time ? perfAt(task.end_time) : r.t.ready,
        startRss,
        peak: rss.peak(r.t.start, r.t.ready),
        cpu,
      });
    }
    const formatRuns: Array<{ label: string; run: IngestResult; cpu: RunCpu }> = [];
    for (const [i, f] of formatSets.entries()) {
      await settled();
      const cpuOf = cpuMeter(server.pid);
      const r = await run(`bench-format-${i}`, f.files, f.images);
      formatRuns.push({ label: f.label, run: r, cpu: withClient(cpuOf(), r) });
    }
    for (const s of results) s.rawAfter = await rawRun(s.jpegs);

    const growth = (peak: number) => (peak - base) / MB;
    const row = (name: string, images: number, bytes: number | null, s: number, peak: number, rssGrowth: string) => [
      name, String(images), bytes === null ? '-' : fixed(bytes / MB, 1), fixed(s, 2), fixed(images / s, 1), bytes === null ? '-' : fixed(bytes / MB / s, 1), fixed(peak / MB, 0), rssGrowth,
    ];
    const timeline = (r: IngestResult) =>
      [...PROGRESS_MARKS.map((m) => `${m} % ${r.progressAt.has(m) ? `${fixed(secs(r.t.processStart, r.progressAt.get(m)!), 1)} s` : 'unseen'}`), `READY ${fixed(secs(r.t.processStart, r.t.ready), 1)} s`].join(', ');

    const rows: string[][] = [];
    const goals: BenchReport['goals'] = [];
    const perSize: string[] = [];
    const perFormat: string[] = [];
    for (const s of results) {
      const { n, run: r, jpegBytes } = s;
      const { t } = r;
      const uploadS = secs(t.start, t.uploaded);
      const processS = secs(t.processStart, t.ready);
      const mediaS = secs(t.processStart, s.indexStart);
      const imagesS = secs(t.processStart, s.imagesDone);
      const indexS = secs(s.indexStart, s.commitStart);
      const e2eRate = n / (uploadS + processS);
      const rawRate = (2 * n) / (s.rawBefore.seconds + s.rawAfter.seconds);
      const embedRate = n / s.embed.seconds;
      const spread = Math.abs(s.rawBefore.seconds - s.rawAfter.seconds) / Math.min(s.rawBefore.seconds, s.rawAfter.seconds);
      rows.push(
        row(`N=${n}: raw sharp decode+thumb+preview, before`, n, jpegBytes, s.rawBefore.seconds, s.rawBefore.peak, '-'),
        row(`N=${n}: raw sharp decode+thumb+preview, after`, n, jpegBytes, s.rawAfter.seconds, s.rawAfter.peak, '-'),
        row(`N=${n}: embedder alone (${s.embed.workers} threads, ${config.embeddingInputSize} px)`, n, null, s.embed.seconds, s.embed.peak, '-'),
        row(`N=${n}: upload (${r.files} files, batches of 50)`, n, r.bytes, uploadS, rss.peak(t.start, t.uploaded), '-'),
        row(`N=${n}: processing (process_files -> READY)`, n, r.bytes, processS, rss.peak(t.processStart, t.ready), '-'),
        row(`N=${n}:   media stage, images (-> last image stored)`, n, jpegBytes, imagesS, rss.peak(t.processStart, s.imagesDone), '-'),
        row(`N=${n}:   media stage (-> index start)`, n, r.bytes, mediaS, rss.peak(t.processStart, s.indexStart), '-'),
        row(`N=${n}:   index stage (-> commit)`, n, null, indexS, rss.peak(s.indexStart, s.commitStart), '-'),
        row(`N=${n}: end-to-end`, n, r.bytes, uploadS + processS, s.peak, fixed(growth(s.peak), 0)),
      );
      perSize.push(
        `  N=${n}: end-to-end ${fixed(e2eRate, 1)} images/s = ${fixed(100 * (e2eRate / rawRate), 1)} % of raw (${fixed(rawRate, 1)}), ` +
          `${fixed(100 * (e2eRate / embedRate), 1)} % of embedder alone (${fixed(embedRate, 1)}); media stage ${fixed(mediaS, 1)} s ` +
          `(its images alone ${fixed(n / imagesS, 1)} images/s = ${fixed(100 * (n / imagesS / embedRate), 1)} % of embedder alone), ` +
          `index stage ${fixed(indexS, 2)} s (${fixed((100 * indexS) / processS, 1)} % of processing), commit + READY poll ${fixed(secs(s.commitStart, t.ready), 2)} s.`,
        `    Raw before vs after differ by ${fixed(100 * spread, 0)} %${spread > 0.15 ? ': NOISY (other load on the machine?); rerun before trusting the ratios' : ''}. ` +
          `Embedder alone: inputs pre-decoded in ${fixed(s.embed.decodeSeconds, 1)} s, threads + models loaded in ${fixed(s.embed.startSeconds, 1)} s (untimed).`,
        `    Progress as polled, from process_files: ${timeline(r)}.`,
        `    CPU per image, upload to READY: ${cpuPer(s.cpu, n)}; ` +
          `the wall time on ${os.cpus().length} CPUs gives ${fixed((1000 * os.cpus().length * (uploadS + processS)) / n, 1)} ms per image.`,
      );
      goals.push(
        { description: `N=${n}: end-to-end >= ${GOAL_RATE} images/s on ${os.cpus().length} CPUs`, actual: `${fixed(e2eRate, 1)} images/s; ${fixed(e2eRate / rawRate, 2)}x raw, ${fixed(e2eRate / embedRate, 2)}x embedder alone`, pass: e2eRate >= GOAL_RATE },
        { description: `N=${n}: end-to-end >= ${GOAL_VS_RAW * 100} % of raw decode-and-resize throughput`, actual: `${fixed(100 * (e2eRate / rawRate), 1)} % (${fixed(e2eRate, 1)} vs ${fixed(rawRate, 1)} images/s)`, pass: e2eRate / rawRate >= GOAL_VS_RAW },
      );
    }

    const big = results[results.length - 1]!;
    const refPeak = refRun ? rss.peak(refRun.t.start, refRun.t.ready) : results[0]!.peak;
    if (refRun) {
      const e2e = secs(refRun.t.start, refRun.t.ready);
      rows.push(row(`N/5=${refN} (memory reference)`, refN, refRun.bytes, e2e, refPeak, fixed(growth(refPeak), 0)));
    }
    const at = (mark: number) => big.run.progressAt.get(mark);
    const window = (from: number, to: number) => {
      const [a, b] = [from === 0 ? big.run.t.processStart : at(from), at(to)];
      return a !== undefined && b !== undefined ? fixed(rss.peak(a, b) / MB, 0) : '-';
    };
    const growthRatio = growth(big.peak) / Math.max(growth(refPeak), 1);
    const peakRatio = big.peak / refPeak;
    const refLabel = refRun ? `N/5=${refN}` : `N=${refN}`;
    goals.push({
      description: `memory flat in the number of files: peak RSS (N=${largest}) <= ${GOAL_PEAK_RSS}x peak RSS (${refLabel}, ${fixed(largest / refN, 1)}x fewer files)`,
      actual: `${fixed(peakRatio, 2)}x (${fixed(big.peak / MB, 0)} vs ${fixed(refPeak / MB, 0)} MB; growth over the baseline ${fixed(growth(big.peak), 0)} vs ${fixed(growth(refPeak), 0)} MB = ${fixed(growthRatio, 2)}x; in the N=${largest} run ${window(0, 25)} -> ${window(75, 98)} MB)`,
      pass: peakRatio <= GOAL_PEAK_RSS,
    });
    for (const f of formatRuns) {
      const { t } = f.run;
      const seconds = secs(t.start, t.ready);
      const peak = rss.peak(t.start, t.ready);
      rows.push(row(`${f.label}: end-to-end`, f.run.nImages, f.run.bytes, seconds, peak, fixed(growth(peak), 0)));
      perFormat.push(
        `  ${f.label}: ${f.run.nImages} images + ${f.run.nVideos} videos in ${fixed(seconds, 1)} s (upload ${fixed(secs(t.start, t.uploaded), 1)} s); CPU ` +
          (f.run.nImages > 0 ? `per image ${cpuPer(f.cpu, f.run.nImages)}.` : `of the run ${cpuPer(f.cpu, 1)}.`),
      );
    }
    const meanKb = big.jpegBytes / largest / 1000;

    return {
      title: `Dataset creation with indexing: ${sizes.join(' and ')} JPEGs (+ ${VIDEOS} videos each) through the HTTP API`,
      notes: [
        `Media per N: N distinct 1024x768 JPEGs (q85, ${fixed(meanKb, 0)} KB mean at N=${largest}) + ${VIDEOS} 5 s 640x360 H.264 videos, all generated before timing in ${fixed(genSeconds, 0)} s.`,
        `Loupe: one server process of its own (bench/lib/api-process.ts, LOUPE_ROLE all), embedded PostgreSQL, pino silent, defaults: MEDIA_CONCURRENCY ${config.media.concurrency} (= image worker processes, one`,
        `  CenterNet embedder each, on ONNX Runtime), EMBEDDING_INPUT_SIZE ${config.embeddingInputSize}; ${os.cpus().length} CPUs. The client (Node fetch, a process of its own) follows the`,
        '  documented flow: new_dataset, data_files, batches of 50 files (multipart, streamed from disk), process_files, GET dataset every 200 ms.',
        'Upload: first request to last 202 (videos included). Processing: process_files sent to READY seen (videos included, +-200 ms poll),',
        '  split by the database: media stage = process_files -> the index stage forks its version (versions.created_at; includes queue pickup',
        '  and the videos, processed last; "images" ends at the last image\'s media row), index stage = that fork -> the commit transaction',
        '  (tasks.end_time: k-NN graph, clusters, scores, saved).',
        '  End-to-end images/s = images / (upload + processing).',
        `Raw baseline: sharp alone on the same N JPEGs, ${config.media.concurrency} files in flight, Loupe idle: rotate + 256 px WebP thumbnail (q75) and rotate +`,
        '  <=1024 px JPEG preview (q80), two pipelines (two decodes; processing decodes once but also hashes, measures quality, embeds,',
        '  writes blobs and rows). Run before the ingestion runs and again after them, per N; ratios use both together.',
        `Embedder alone: the same N JPEGs decoded + squeezed to ${config.embeddingInputSize}x${config.embeddingInputSize} RGB by sharp beforehand (untimed, held in one`,
        `  SharedArrayBuffer), then timed: embedding them all on ${config.media.concurrency} worker threads with one embedder each, one input in flight per`,
        '  thread (models loaded and warmed before timing). Run once per N, before the ingestion runs; its peak RSS includes the held inputs.',
        ...perSize,
        `Other inputs, no goal (after the JPEG runs, each its own dataset creation; images/s counts images only):`,
        ...perFormat,
        `Memory: RSS of the server's process and its image worker processes (not PostgreSQL, ffmpeg or the client), sampled every 100 ms; the baselines' rows give this`,
        `  bench process's own (where they run). After the warm-up`,
        `  ingestion (10 JPEGs + 1 video), the baselines and a forced GC, baseline RSS ${fixed(base / MB, 0)} MB; growth = peak RSS during a run (upload to`,
        `  READY) - that common baseline. The N=${largest} run started at ${fixed(big.startRss / MB, 0)} MB. Reference for the flatness goal: the ${refLabel} run`,
        `  (${refRun ? 'an extra run before the others' : 'the smallest N'}); if memory grew with the number of files, ${fixed(largest / refN, 1)}x the files would give about that`,
        `  much more growth; flat gives ~1x. Within the N=${largest} run: peak RSS ${window(0, 25)} MB while processing 0-25 %, ${window(75, 98)} MB at 75-98 %.`,
        `The server's peak RSS over the whole bench: ${fixed(rss.peak() / MB, 0)} MB. MB = 10^6 bytes.`,
      ],
      columns: ['case', 'images', 'MB', 'seconds', 'images/s', 'MB/s', 'peak RSS MB', 'RSS growth MB'],
      rows,
      goals,
    };
  } finally {
    for (const sampler of samplers) sampler.stop();
    client?.close();
    await side?.close();
    await server?.close();
    await rm(media, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
