import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { FsBlobStore } from '../src/adapters/blobs/fs-blob-store.js';
import { bytesToVector } from '../src/adapters/vectors/vector-bytes.js';
import { loadConfig } from '../src/config.js';
import { centreRows } from '../src/modules/indexing/compute-index.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { measureRecall, resetVmHwm, settle, vmHwm } from './index-graph.js';
import { formatSizes, tableSizes } from './lib/db-sizes.js';
import { intFromEnv } from './lib/env.js';
import { putRandomImageBlobs, rawReadSeconds, timeExport } from './lib/export-run.js';
import { RssSampler, ingest } from './lib/ingest.js';
import { type Latency, sequentialLatency } from './lib/latency.js';
import { loadSettingsFromEnv, measure } from './lib/load.js';
import { type GeneratedFile, generateSmallJpegs } from './lib/media-gen.js';
import { writeMetadataCsv } from './lib/metadata-csv.js';
import { explainDuring } from './lib/pg-capture.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';
import { regenerate, seedNotifications, seedScaleMedia, seededIndex } from './lib/scale-seed.js';
import { seedTasks } from './lib/seed.js';
import { seedIndexedDataset } from './lib/seed-media.js';

const MB = 1e6;
const SMALL_MEDIA = 1000;
const BASE_IMAGES = 10;
const TAGGED_MAX = 100_000;
const POLL_MS = 200;
const LEVELS = [0, 1, 2, 3, 4];

type Db = Loupe['container']['database']['db'];

interface Row {
  row: string;
  figure: string;
  goal: string;
  pass: boolean | null;
}

interface Stage {
  name: string;
  seconds: number;
  peakRss: number;
}

const secs = (from: number, to = performance.now()) => (to - from) / 1000;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** A task's status message with its counts taken out, so each phase of a long task reads as one name. */
const phaseOf = (message: string) => message.replace(/\d+/g, '#').replace(/# of # /, '');

/**
 * Waits for the task of `type` on the dataset that is not in `known` to complete; returns its id, its start/end
 * (DB clock) and, in `phases`, the seconds each phase of its status messages lasted as polled.
 */
async function waitTask(db: Db, datasetId: string, type: string, known: Set<string>): Promise<{ id: string; start: Date; end: Date; message: string; phases: Array<[string, number]> }> {
  const phases: Array<[string, number]> = [];
  let phase = '';
  let since = performance.now();
  for (;;) {
    const tasks = await db
      .selectFrom('tasks')
      .select(['id', 'status', 'status_message', 'error_message', 'start_time', 'end_time'])
      .where('dataset_id', '=', datasetId)
      .where('task_type', '=', type as never)
      .execute();
    const task = tasks.find((t) => !known.has(t.id));
    const now = performance.now();
    const current = task ? phaseOf(task.status_message) : '';
    if (current !== phase || task?.status === 'COMPLETED') {
      if (phase) phases.push([phase, (now - since) / 1000]);
      phase = current;
      since = now;
    }
    if (task?.status === 'FAILED' || task?.status === 'ABORTED') throw new Error(`${type} task ${task.status}: ${task.error_message ?? task.status_message}`);
    if (task?.status === 'COMPLETED') return { id: task.id, start: task.start_time, end: task.end_time!, message: task.status_message, phases };
    await sleep(POLL_MS);
  }
}

async function knownTasks(db: Db, datasetId: string, type: string): Promise<Set<string>> {
  const rows = await db.selectFrom('tasks').select('id').where('dataset_id', '=', datasetId).where('task_type', '=', type as never).execute();
  return new Set(rows.map((r) => r.id));
}

/** What the level-0 clusters and outlier flags of the indexed head say about the planted truth, and recall@10 of its saved ANN index. */
async function indexQuality(loupe: Loupe, datasetId: string, n: number, truth: Awaited<ReturnType<typeof seedScaleMedia>>['truth']) {
  const { db } = loupe.container.database;
  const { head_version_id: head } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
  const index = await db.selectFrom('version_indexes').select(['mean', 'ann_blob_hash', 'dimensions', 'item_count', 'params']).where('version_id', '=', head!).executeTakeFirstOrThrow();
  const level0 = new Array<string | null>(n).fill(null);
  const outlier = new Uint8Array(n);
  const itemOfKey = new Int32Array(index.item_count).fill(-1);
  const PAGE = 100_000;
  for (let from = 0; from < index.item_count; from += PAGE) {
    const { rows } = await sql<{ ordinal: number; file_name: string; cluster_l0: string | null; is_outlier: boolean }>`
      select vm.ordinal, m.file_name, vm.cluster_l0, vm.is_outlier from version_media vm join media m on m.id = vm.media_id
      where vm.version_id = ${head}::uuid and vm.ordinal >= ${from}::int and vm.ordinal < ${from + PAGE}::int`.execute(db);
    for (const r of rows) {
      const i = seededIndex(r.file_name);
      if (i < 0) continue;
      itemOfKey[r.ordinal] = i;
      level0[i] = r.cluster_l0;
      outlier[i] = r.is_outlier ? 1 : 0;
    }
  }
  let kept = 0;
  for (let p = 0; p < truth.duplicates.length; p += 2) {
    const a = level0[truth.duplicates[p]!];
    if (a !== null && a === level0[truth.duplicates[p + 1]!]) kept++;
  }
  let flagged = 0;
  for (const i of truth.isolated) flagged += outlier[i]!;

  const t = performance.now();
  const d = index.dimensions;
  let vectors: Float32Array | null = regenerate(n, d);
  const mean = bytesToVector(index.mean);
  centreRows(vectors, d, mean);
  const indexPath = (loupe.container.blobs as FsBlobStore).pathOf(index.ann_blob_hash!);
  const recall = measureRecall(vectors, n, d, indexPath, 0x5eed, undefined, itemOfKey);
  vectors = null;
  return {
    duplicates: truth.duplicates.length / 2,
    kept,
    isolated: truth.isolated.length,
    flagged,
    recall,
    recallSeconds: secs(t),
    indexBytes: (await stat(indexPath)).size,
    params: index.params as { seconds?: { graph?: number; clusters?: number }; hnsw?: unknown; exact_graph?: boolean },
    dimensions: d,
  };
}

/**
 * Issue 23's table at BENCH_SCALE_MEDIA media (default 1,000,000) in one install: synthetic embeddings seeded
 * straight into PostgreSQL, the real reindex, then every page and job of the issue through the HTTP API.
 */
export async function scale(): Promise<BenchReport> {
  const n = intFromEnv('BENCH_SCALE_MEDIA', 1_000_000, 1000);
  const samples = intFromEnv('BENCH_SCALE_SAMPLES', 20, 3);
  const budgetS = intFromEnv('BENCH_SCALE_ROW_BUDGET_S', 10);
  const addImages = intFromEnv('BENCH_SCALE_ADD_IMAGES', 1000);
  const exportImages = intFromEnv('BENCH_SCALE_EXPORT_IMAGES', 2000);
  const taskCount = intFromEnv('BENCH_SCALE_TASKS', n);
  const exportTimeoutS = intFromEnv('BENCH_SCALE_EXPORT_TIMEOUT_S', 180);
  const explainFile = process.env.BENCH_EXPLAIN === '1' ? (process.env.BENCH_EXPLAIN_FILE?.trim() || path.join(os.tmpdir(), `loupe-scale-explain-${n}.md`)) : null;
  const latencyOptions = { samples, budgetS, minSamples: 3 };
  const wallStart = performance.now();
  const loadAtStart = load();
  const media = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-scale-media-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  const rss = new RssSampler(100);
  const rows: Row[] = [];
  const stages: Stage[] = [];
  const sizes: string[] = [];
  const explains: string[] = [];
  const notes: string[] = [];
  let loupe: Loupe | null = null;
  const stage = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    process.stderr.write(`  scale: ${name} (load ${load()})...\n`);
    const start = performance.now();
    const value = await work();
    stages.push({ name, seconds: secs(start), peakRss: rss.peak(start) });
    return value;
  };
  const goalRow = (row: string, figure: string, goal: string, pass: boolean | null) => rows.push({ row, figure, goal, pass });
  try {
    const [baseSet, addSet] = await Promise.all([
      generateSmallJpegs(path.join(media, 'base'), 'scale-base', BASE_IMAGES, 231),
      generateSmallJpegs(path.join(media, 'add'), 'scale-add', addImages, 232),
    ]);
    loupe = await startLoupe(
      loadConfig(
        { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', EXPORT_MAX_ITEMS: String(10 * n), MAX_FILES_PER_REQUEST: String(Math.max(500, addImages)) },
        { role: 'all' },
      ),
    );
    const url = loupe.url!;
    const { db } = loupe.container.database;
    const issued = await loupe.container.services.auth.createUser('bench-scale@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const auth = { authorization: `Bearer ${token}` };
    const send = async (method: string, route: string, body?: unknown, expect = 200) => {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: { ...auth, ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
      return text ? (JSON.parse(text) as Record<string, any>) : {};
    };
    // A page that fails becomes a MISS row saying why, so one bad page does not lose a long run's table.
    const timed = async (name: string, route: string): Promise<Latency & { error?: string }> => {
      try {
        const lat = await sequentialLatency(`${url}${route}`, auth, latencyOptions);
        if (explainFile) explains.push(...(await explainDuring(loupe!, `${name} — GET ${route}`, () => fetch(`${url}${route}`, { headers: auth }).then((r) => r.arrayBuffer()))));
        return lat;
      } catch (err) {
        return { samples: 0, p50Ms: Number.NaN, p95Ms: Number.NaN, maxMs: Number.NaN, bytes: Number.NaN, body: '', error: err instanceof Error ? err.message.slice(0, 200) : String(err) };
      }
    };
    const latencyFigure = (l: Latency & { error?: string }) =>
      l.error ? `failed: ${l.error}` : `p95 ${fixed(l.p95Ms, 0)} ms (p50 ${fixed(l.p50Ms, 0)}, max ${fixed(l.maxMs, 0)}, ${l.samples} requests)`;
    // The stages after the index quality do not feed each other: one that fails is a MISS row and the run goes on.
    const tryStage = async (name: string, work: () => Promise<void>): Promise<void> => {
      try {
        await stage(name, work);
      } catch (err) {
        goalRow(`${name}: stage failed`, err instanceof Error ? err.message.slice(0, 300) : String(err), 'completes', false);
      }
    };

    // The 1,000-media dataset, measured while the install holds nothing else.
    const small = await seedIndexedDataset(loupe, issued.user_id, 'scale-small', SMALL_MEDIA);
    // Untimed: a fresh server's first Explore requests pay for JIT and plan caches, which the later measurement would not.
    await sequentialLatency(`${url}/api/v1/explore/${small}?threshold=0`, auth, { samples: 20, budgetS: 10, minSamples: 3 });
    const smallAlone = await timed('Explore, 1,000-media dataset, install otherwise empty', `/api/v1/explore/${small}?threshold=0`);

    // The big dataset: a few real images through ingestion (its embedding config), then N seeded media, reindexed for real.
    const base = await ingest(url, token, 'scale-big', baseSet);
    const big = base.datasetId;
    const seeded = await stage(`seed ${n} media, embeddings and version rows (COPY, untimed for goals)`, () => seedScaleMedia(loupe!, big, n));
    sizes.push(...formatSizes(`after the seed (${n} media)`, await tableSizes(loupe)));

    // The seed's vectors are garbage by now; collected, so the peak below is the reindex's and the server's.
    await settle();
    const hwmResettable = resetVmHwm();
    const rssBeforeBuild = process.memoryUsage.rss();
    const known = await knownTasks(db, big, 'REINDEX');
    const reindex = await stage(`reindex of ${n + BASE_IMAGES} media (POST reindex -> COMPLETED)`, async () => {
      const start = performance.now();
      await send('POST', `/api/v1/dataset/${big}/reindex`, undefined, 202);
      const task = await waitTask(db, big, 'REINDEX', known);
      return { seconds: secs(start), task };
    });
    const hwm = vmHwm();
    const buildPeak = hwmResettable ? hwm : stages[stages.length - 1]!.peakRss;
    const status = await send('GET', `/api/v1/dataset/${big}`);
    if (status.status_new !== 'READY') throw new Error(`after the reindex the dataset is ${status.status_new}`);
    sizes.push(...formatSizes('after the reindex', await tableSizes(loupe)));

    const quality = await stage('index quality (dupes, outliers, recall@10 on the regenerated vectors)', () => indexQuality(loupe!, big, n, seeded.truth));
    const build = (quality.params.seconds?.graph ?? Number.NaN) + (quality.params.seconds?.clusters ?? Number.NaN);
    const recallGoal = n <= 100_000 ? 0.98 : 0.95;
    goalRow('recall@10 of similarity search on the saved index (vs exact, sampled queries; the graph\'s own: BENCH_ONLY=index-graph)', `${fixed(quality.recall.recall, 4)} (${quality.recall.queries} queries, ${quality.recall.perfect} perfect)`, `>= ${recallGoal}`, quality.recall.recall >= recallGoal);
    const keptPct = (100 * quality.kept) / Math.max(1, quality.duplicates);
    const flaggedPct = (100 * quality.flagged) / Math.max(1, quality.isolated);
    goalRow('near-duplicates kept in their level-0 cluster', `${fixed(keptPct, 2)} % (${quality.kept}/${quality.duplicates})`, '>= 99 %', keptPct >= 99);
    goalRow('isolated points flagged as outliers', `${fixed(flaggedPct, 2)} % (${quality.flagged}/${quality.isolated})`, '>= 98 %', flaggedPct >= 98);
    goalRow('graph + clusters + scores build (computeIndex seconds), 2 cores', `${fixed(build, 1)} s`, '< 600 s', build < 600);
    goalRow(
      'peak RSS of the process during the reindex',
      `${fixed(buildPeak / MB, 0)} MB (${hwmResettable ? 'VmHWM' : 'sampled'}; ${fixed((buildPeak - rssBeforeBuild) / MB, 0)} MB over the ${fixed(rssBeforeBuild / MB, 0)} MB before)`,
      '< 3000 MB',
      buildPeak < 3000 * MB,
    );

    goalRow(`reindex of ${n + BASE_IMAGES} media (POST -> COMPLETED)`, `${fixed(reindex.seconds, 1)} s`, '< 900 s', reindex.seconds < 900);

    // Before the annotations, as the issue measured it; again after them (below), bounded, as a dataset with custom fields exports.
    const parquetRow = async (when: string, timeoutS: number) => {
      try {
        const parquet = await timeExport(url, token, big, 'file_name=scale&export_format=parquet', rss, timeoutS);
        const added = (parquet.rssPeak - parquet.rssBefore) / MB;
        goalRow(`export, Parquet, metadata only (${n + BASE_IMAGES} media, ${when})`, `${fixed(parquet.seconds, 1)} s, +${fixed(added, 0)} MB RSS (${fixed(parquet.archiveBytes / MB, 1)} MB archive)`, '< 10 s, < 300 MB added', parquet.seconds < 10 && added < 300);
      } catch (err) {
        // The export's cursor would go on loading the database under the rows timed next.
        await sql`select pg_cancel_backend(pid) from pg_stat_activity where query ~ 'export_items' and pid <> pg_backend_pid()`.execute(db);
        goalRow(`export, Parquet, metadata only (${n + BASE_IMAGES} media, ${when})`, `failed: ${err instanceof Error ? err.message : String(err)}`, '< 10 s, < 300 MB added', false);
      }
    };
    await tryStage('export Parquet before the annotations', () => parquetRow('no annotations', exportTimeoutS));

    // Annotations Explore filters on: tags and a label on every tenth media (at most 100k), custom fields on all.
    await tryStage('annotations: tags, label, custom metadata import (untimed)', async () => {
      const { rows: picked } = await sql<{ media_id: string }>`select vm.media_id from version_media vm join datasets d on d.head_version_id = vm.version_id
        where d.id = ${big}::uuid and vm.ordinal % 10 = 0 order by vm.ordinal limit ${TAGGED_MAX}`.execute(db);
      const ids = picked.map((r) => r.media_id);
      await send('POST', `/api/v1/dataset/${big}/media/tags`, { tags: ['bench-a'], media_ids: ids });
      await send('PUT', `/api/v1/dataset/${big}/media/label`, { label: 'bench', media_ids: ids });
      const csv = path.join(media, 'metadata.csv');
      await writeMetadataCsv(csv, n);
      const knownImports = await knownTasks(db, big, 'CUSTOM_METADATA');
      const form = new FormData();
      form.append('file', await openAsBlob(csv), 'metadata.csv');
      await send('POST', `/api/v1/dataset/${big}/custom_metadata`, form, 202);
      const imported = await waitTask(db, big, 'CUSTOM_METADATA', knownImports);
      // Pages filtered by one tag or label read the head's facet summaries, written by a job once it is the head.
      const head = await db.selectFrom('datasets').select('head_version_id').where('id', '=', big).executeTakeFirstOrThrow();
      for (const deadline = Date.now() + 600_000; ; ) {
        const { rows: written } = await sql`select 1 from version_facets where version_id = ${head.head_version_id}::uuid`.execute(db);
        if (written.length > 0) break;
        if (Date.now() > deadline) throw new Error('the head facet summaries were not written within 10 minutes');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      notes.push(`Facet summaries of the head (tag bench-a, label bench) written ${fixed((Date.now() - imported.end.getTime()) / 1000, 1)} s after the import committed; a filtered page reads the rows until then.`);
      for (const [name, query] of [['outliers', 'issue_type=outliers'], ['tagged', 'tags=bench-a'], ['unique', 'min_uniqueness=0.9']] as const) {
        await send('POST', `/api/v1/dataset/${big}/views?${query}`, { name });
      }
      await seedNotifications(loupe!, issued.user_id, big, Math.max(1000, Math.floor(n / 10)));
    });
    sizes.push(...formatSizes('after the annotations', await tableSizes(loupe)));

    await tryStage('export Parquet after the annotations', () => parquetRow('tags, label and 5 custom fields', exportTimeoutS));

    await tryStage('HTTP pages (sequential requests)', async () => {
      let thresholdFourBytes = 0;
      for (const level of LEVELS) {
        for (const page of [0, 50]) {
          const l = await timed(`Explore threshold=${level} page ${page}`, `/api/v1/explore/${big}?threshold=${level}&page_number=${page}`);
          if (level === 4 && page === 0) thresholdFourBytes = l.bytes;
          goalRow(`Explore unfiltered, threshold=${level}, page ${page}`, latencyFigure(l), 'p95 < 150 ms', l.p95Ms < 150);
        }
      }
      const custom = encodeURIComponent(JSON.stringify([{ custom: { field: 'weather', op: 'eq', value: 'rain' } }]));
      const filters: Array<[string, string]> = [
        ['issues (outliers)', 'issue_type=outliers'],
        ['uniqueness (>= 0.9)', 'min_uniqueness=0.9'],
        ['tags (a tenth of the media)', 'tags=bench-a'],
        ['labels (a tenth of the media)', 'labels=bench'],
        ['custom field (weather = rain, a fifth)', `vql=${custom}`],
        ['fts caption (matches nothing)', 'caption=zebracorn'],
      ];
      for (const [name, query] of filters) {
        const l = await timed(`Explore filter ${name}`, `/api/v1/explore/${big}?${query}`);
        goalRow(`Explore with one filter: ${name}`, latencyFigure(l), 'p95 < 500 ms', l.p95Ms < 500);
      }
      const { rows: anchorRows } = await sql<{ media_id: string }>`select vm.media_id from version_media vm
        where vm.version_id = (select head_version_id from datasets where id = ${big}::uuid) and vm.ordinal = ${Math.floor(n / 3)}`.execute(db);
      const byMedia = await timed('similarity by media anchor', `/api/v1/explore/${big}?anchor_media_id=${anchorRows[0]!.media_id}`);
      goalRow('similarity by a media anchor (whole index)', latencyFigure(byMedia), 'p95 < 300 ms', byMedia.p95Ms < 300);
      const upload = new FormData();
      upload.append('file', await openAsBlob(baseSet[0]!.path), baseSet[0]!.name);
      const uploadStart = performance.now();
      const anchor = await send('POST', `/api/v1/dataset/${big}/search-image-similarity`, upload);
      notes.push(`Upload of the anchor image (search-image-similarity, decode + embed): ${fixed(secs(uploadStart) * 1000, 0)} ms, not in the row below.`);
      const byUpload = await timed('similarity by uploaded image', `/api/v1/explore/${big}?anchor_media_id=${anchor.anchor_media_id}&anchor_type=UPLOAD`);
      goalRow('similarity by an uploaded image (Explore with its UPLOAD anchor)', latencyFigure(byUpload), 'p95 < 300 ms', byUpload.p95Ms < 300);

      const total = n + BASE_IMAGES;
      const lists: Array<[string, string]> = [
        ['media list, limit=50, offset 0', `/api/v1/dataset/${big}/media?limit=50&offset=0`],
        [`media list, limit=50, offset ${Math.floor(total / 2)}`, `/api/v1/dataset/${big}/media?limit=50&offset=${Math.floor(total / 2)}`],
        ['dataset list', '/api/v1/datasets'],
        ['views list (3 views, with counts)', `/api/v1/dataset/${big}/views`],
        ['notifications, limit=50', '/api/v1/notifications?limit=50'],
      ];
      for (const [name, route] of lists) {
        const l = await timed(name, route);
        goalRow(name, latencyFigure(l), 'p95 < 100 ms', l.p95Ms < 100);
      }
      const smallBig = await timed('Explore, 1,000-media dataset, beside the big one', `/api/v1/explore/${small}?threshold=0`);
      const ratio = smallBig.p95Ms / smallAlone.p95Ms;
      goalRow(
        `Explore on a ${SMALL_MEDIA}-media dataset beside ${n} media vs alone (p95)`,
        `${fixed(ratio, 2)}x (${fixed(smallBig.p95Ms, 0)} vs ${fixed(smallAlone.p95Ms, 0)} ms)`,
        '<= 1.2x',
        ratio <= 1.2,
      );
      goalRow('Explore response size, threshold=4, default previews', `${fixed(thresholdFourBytes / 1000, 0)} KB`, '< 500 KB', thresholdFourBytes < 500_000);
    });

    await tryStage('export with images', async () => {
      const blobs = await putRandomImageBlobs(loupe!, exportImages);
      const imageBytes = blobs.reduce((sum, b) => sum + b.size, 0);
      const withImagesId = await seedIndexedDataset(loupe!, issued.user_id, 'scale-export-images', exportImages, blobs);
      const raw = imageBytes / MB / (await rawReadSeconds(loupe!, blobs));
      const withImages = await timeExport(url, token, withImagesId, 'file_name=images&export_format=json&include_images=true', rss);
      const mbps = imageBytes / MB / withImages.seconds;
      goalRow(
        `export with images (${exportImages} files, ${fixed(imageBytes / MB, 0)} MB) vs a raw read of them`,
        `${fixed((100 * mbps) / raw, 0)} % (${fixed(mbps, 1)} vs ${fixed(raw, 1)} MB/s)`,
        '>= 75 %',
        mbps >= 0.75 * raw,
      );
    });

    await tryStage(`GET /api/v1/tasks over ${taskCount} tasks (seed untimed)`, async () => {
      const tasks = await seedTasks(loupe!, { datasets: 20, tasks: taskCount });
      const taskToken = await signClientToken(tasks.apiKey, tasks.apiSecret, 3600);
      const settings = loadSettingsFromEnv();
      const route = '/api/v1/tasks?page_size=50';
      const s = await measure(`${url}${route}`, { authorization: `Bearer ${taskToken}` }, settings);
      if (explainFile) {
        explains.push(...(await explainDuring(loupe!, `task list over ${tasks.taskCount} tasks — GET ${route}`, () => fetch(`${url}${route}`, { headers: { authorization: `Bearer ${taskToken}` } }).then((r) => r.arrayBuffer()))));
      }
      goalRow(
        `GET /api/v1/tasks with ${tasks.taskCount} tasks, ${settings.connections} connections`,
        `p99 ${s.p99Ms} ms (p50 ${s.p50Ms}, ${fixed(s.reqPerSec, 0)} req/s, ${s.non2xx} non-2xx, ${s.errors} errors)`,
        'p99 < 25 ms',
        s.p99Ms < 25 && s.non2xx === 0 && s.errors === 0,
      );
    });

    await tryStage(`add_media of ${addImages} images to the big dataset`, async () => {
      const knownAdds = await knownTasks(db, big, 'MEDIA_ADDITION');
      const form = new FormData();
      for (const f of addSet) form.append('files', await openAsBlob(f.path), f.name);
      const start = performance.now();
      await send('POST', `/api/v1/dataset/${big}/add_media`, form, 202);
      const accepted = performance.now();
      const task = await waitTask(db, big, 'MEDIA_ADDITION', knownAdds);
      const done = performance.now();
      const after = await send('GET', `/api/v1/dataset/${big}`);
      if (after.status_new !== 'PARTIAL INDEX') throw new Error(`after add_media the dataset is ${after.status_new}`);
      const { rows: span } = await sql<{ first: Date; last: Date }>`select min(created_at) as first, max(created_at) as last from media where file_name like 'scale-add-%'`.execute(db);
      const perf = (d: Date) => d.getTime() - performance.timeOrigin;
      const decode = secs(perf(span[0]!.first), perf(span[0]!.last));
      const rest = secs(start, done) - decode;
      notes.push(
        `add_media: request (upload + intake) ${fixed(secs(start, accepted), 2)} s; first -> last media row (decode, thumbnails, embed of ${addImages} 320x240 JPEGs) ${fixed(decode, 2)} s;`,
        `  last media row -> task COMPLETED (attach to a new version, partial index, views) ${fixed(secs(perf(span[0]!.last), perf(task.end)), 2)} s; total ${fixed(secs(start, done), 2)} s. Task: "${task.message}".`,
      );
      goalRow(`add_media of ${addImages} images (PARTIAL INDEX), excluding the media stage`, `${fixed(rest, 1)} s (total ${fixed(secs(start, done), 1)} s)`, '< 30 s', rest < 30);
    });
    sizes.push(...formatSizes('at the end', await tableSizes(loupe)));

    const wall = secs(wallStart);
    goalRow(`this bench's wall time at ${n} media`, `${fixed(wall / 60, 1)} min`, n >= 1_000_000 ? '< 45 min' : '< 45 min at 1M (extrapolate)', n >= 1_000_000 ? wall < 45 * 60 : null);
    if (explainFile) {
      await writeFile(explainFile, [`# EXPLAIN ANALYZE at ${n} media (bench/scale.ts)`, '', ...explains].join('\n'));
      notes.push(`EXPLAIN (ANALYZE, BUFFERS) of every query behind each timed page: ${explainFile}`);
    }
    const vectorMb = ((n * quality.dimensions * 4) / MB).toFixed(0);
    return {
      title: `Scale: ${n} media in one install (issue 23)`,
      notes: [
        `One Loupe in this process (role all, embedded PostgreSQL, pino silent), ${os.cpus().length} CPUs. Load average at start ${loadAtStart}, at the end ${load()}.`,
        `Seed (untimed): ${BASE_IMAGES} small JPEGs through ingestion (the dataset's embedding config), then ${n} synthetic ${quality.dimensions}-d embeddings`,
        `  (bench/lib/synthetic-vectors.ts: ~N/20 Gaussian centres, 2 % planted duplicates, half exact, 1 % isolated points) with media rows and the`,
        `  head's version rows by COPY; then POST reindex (the real path: read vectors, computeIndex off-thread, write rows, save the ANN blob).`,
        `  Build = computeIndex's own graph + clusters seconds from version_indexes.params; peak RSS = VmHWM of this process (bench + server +`,
        `  index worker thread; not PostgreSQL) over the reindex, reset before it. Vectors ${vectorMb} MB as f32; ANN index file ${fixed(quality.indexBytes / MB, 1)} MB.`,
        `Quality: level-0 cluster of each planted duplicate and its source, is_outlier of each isolated point, from the indexed head; recall@10 of the`,
        `  saved index (VectorIndex.view().search(), as similarity search runs it; the neighbour graph itself is not stored, so its recall is
  measured by BENCH_ONLY=index-graph at the same N) vs exact search over the regenerated vectors centred on the stored mean (bench/index-graph.ts measureRecall).`,
        `Pages: sequential GETs on one kept-alive connection, one untimed warm-up, up to ${samples} timed requests or ${budgetS} s per row (at least 3).`,
        `  Filters: tags/label on every tenth media (at most ${TAGGED_MAX}), custom fields from a ${n}-row CSV import, 3 saved views, N/10 notifications.`,
        `  The 1,000-media dataset is seeded (SQL) first and timed alone, then again with the big dataset beside it.`,
        `Task list: ${taskCount} tasks seeded by SQL (bench/lib/seed.ts) for another user; autocannon (BENCH_CONNECTIONS, default 10).`,
        `add_media: ${addImages} small JPEGs (320x240) in one request; "excluding the media stage" = total - (first -> last media row written),`,
        '  the decode/thumbnail/embed work, so the figure is the attach + PARTIAL INDEX work (plus the request). MB = 10^6 bytes.',
        ...notes,
        `Wall time of the whole bench: ${fixed(wall, 0)} s.`,
      ],
      columns: ['row', 'figure', 'goal', 'result'],
      rows: rows.map((r) => [r.row, r.figure, r.goal, r.pass === null ? '-' : r.pass ? 'PASS' : 'MISS']),
      goals: rows.filter((r) => r.pass !== null).map((r): Goal => ({ description: `${r.row}: ${r.goal}`, actual: r.figure, pass: r.pass! })),
      details: [
        'Stages (wall s, peak RSS of this process MB):',
        ...stages.map((s) => `  ${s.name}: ${fixed(s.seconds, 1)} s, peak ${fixed(s.peakRss / MB, 0)} MB`),
        `Reindex: POST -> COMPLETED ${fixed(reindex.seconds, 1)} s, of which computeIndex graph ${fixed(quality.params.seconds?.graph ?? Number.NaN, 1)} s + clusters ${fixed(quality.params.seconds?.clusters ?? Number.NaN, 1)} s; HNSW ${JSON.stringify(quality.params.hnsw)}.`,
        `Reindex phases (status messages as polled every ${POLL_MS} ms, s): ${reindex.task.phases.map(([name, s]) => `${name} ${fixed(s, 1)}`).join('; ')}.`,
        `Recall check: exact search ${fixed(quality.recall.exactSeconds, 1)} s, index load ${fixed(quality.recall.loadSeconds, 1)} s, stage ${fixed(quality.recallSeconds, 1)} s.`,
        'Table and index sizes (rows: reltuples after ANALYZE; MB = 10^6 bytes):',
        ...sizes,
      ],
    };
  } finally {
    rss.stop();
    await loupe?.close();
    await rm(media, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
