import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { ZipFile } from 'yazl';
import { vectorToBytes } from '../src/adapters/vectors/vector-bytes.js';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { modelKey } from '../src/modules/indexing/version-indexer.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { type S3rverHandle, startS3rver } from '../test/sources/s3rver-server.js';
import { type Dataset, RssSampler, ingest } from './lib/ingest.js';
import { type GeneratedFile, generateJpegs } from './lib/media-gen.js';
import { ITEMS_PER_CENTRE, generate } from './lib/synthetic-vectors.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';
import { intFromEnv } from './lib/env.js';

const GOAL_RATIO = 0.9;
const GOAL_REINDEX_S = 30;
const GOAL_REINDEX_ITEMS = 10_000;
const BASE_IMAGES = 10;
const POLL_MS = 200;
const MB = 1e6;
const BUCKET = 'bench-media';
const S3_PREFIX = 'add-media/';


/** A full collection and a short pause, so each case starts from the same heap (as bench/ingestion.ts does). */
async function settle(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  await sleep(1000);
}

const secs = (from: number, to: number) => (to - from) / 1000;
const sizeOf = (files: GeneratedFile[]) => files.reduce((s, f) => s + f.bytes, 0);


interface TaskRow {
  task_id: string;
  task_type: string;
  status: string;
  status_message: string;
  progress_percentage: number | null;
  error_message: string | null;
}

/** A small client for the routes this bench drives (Bearer token, JSON or empty answers). */
function client(base: string, token: string) {
  const call = async (method: string, route: string, body?: FormData, expect = 200): Promise<string> => {
    const res = await fetch(`${base}${route}`, { method, headers: { authorization: `Bearer ${token}` }, ...(body ? { body } : {}) });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
    return text;
  };
  const dataset = async (id: string) => JSON.parse(await call('GET', `/api/v1/dataset/${id}`)) as Dataset;
  const tasks = async (id: string, type: string) =>
    (JSON.parse(await call('GET', `/api/v1/tasks?dataset_id=${id}&task_type=${type}&page_size=50`)) as { tasks: TaskRow[] }).tasks;

  /**
   * Polls the task list until a task of `type` on the dataset that was not there before (`known`) completes, then
   * checks the dataset reached `status`. A failed add_media leaves the status as it was, so the task is what tells.
   */
  const waitTask = async (id: string, type: string, known: Set<string>, status: string) => {
    for (;;) {
      const task = (await tasks(id, type)).find((t) => !known.has(t.task_id));
      if (task && (task.status === 'FAILED' || task.status === 'ABORTED')) throw new Error(`${type} task ${task.status}: ${task.error_message ?? task.status_message}`);
      if (task?.status === 'COMPLETED') {
        const seen = performance.now();
        const d = await dataset(id);
        if (d.status_new !== status) throw new Error(`${type} completed but the dataset is ${d.status_new}, not ${status}`);
        return { seen, dataset: d, task };
      }
      await sleep(POLL_MS);
    }
  };
  const knownTasks = async (id: string, type: string) => new Set((await tasks(id, type)).map((t) => t.task_id));
  return { call, dataset, waitTask, knownTasks };
}

interface CaseResult {
  name: string;
  images: number;
  bytes: number;
  /** performance.now(): request sent, 202 answered (the request stores the files or the archive), done seen. */
  t: { start: number; accepted: number; done: number };
  itemsAfter?: number;
  message?: string;
  taskId: string;
  datasetId: string;
}

/** The files of `files` as one multipart body: parts backed by the files on disk (streamed, as bench/lib/ingest.ts). */
async function filesForm(files: GeneratedFile[]): Promise<FormData> {
  const form = new FormData();
  for (const f of files) form.append('files', await openAsBlob(f.path), f.name);
  return form;
}

/** A STORE (uncompressed) zip of `files`, as a client would send JPEGs that do not compress. */
async function writeStoredZip(file: string, files: GeneratedFile[]): Promise<void> {
  const zip = new ZipFile();
  for (const f of files) zip.addReadStream(createReadStream(f.path), `photos/${f.name}`, { compress: false, size: f.bytes });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

async function uploadToS3(s3: S3rverHandle, files: GeneratedFile[]): Promise<void> {
  const admin = s3.admin();
  try {
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    let next = 0;
    const lane = async () => {
      while (next < files.length) {
        const f = files[next++]!;
        await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${S3_PREFIX}${f.name}`, Body: await readFile(f.path), ContentType: 'image/jpeg' }));
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
  } finally {
    admin.destroy();
  }
}

// Synthetic embeddings for the reindex at scale: the idea of bench/index-graph.ts `generate` (not exported there),
// reduced to what indexing reads: clustered unit vectors, a few near/exact duplicates, a little pure noise.
/**
 * Adding media to an indexed dataset (files, archive, S3) against creating a dataset from the same kind of files,
 * then reindexing: through the HTTP API, one Loupe in this process; plus a reindex of BENCH_REINDEX_ITEMS seeded media.
 */
export async function addMedia(): Promise<BenchReport> {
  const n = intFromEnv('BENCH_ADD_MEDIA_IMAGES', 500, 5);
  const scaleItems = intFromEnv('BENCH_REINDEX_ITEMS', GOAL_REINDEX_ITEMS, 50);
  // Two directories: as root, the embedded PostgreSQL runs as `postgres` and must reach DATA_DIR.
  const media = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-add-media-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  let s3: S3rverHandle | null = null;
  const rss = new RssSampler(100);
  try {
    // Every set its own seed, so no file repeats another (nothing dedupes by content).
    const genStart = performance.now();
    const baseSet = await generateJpegs(path.join(media, 'base'), 'base', BASE_IMAGES, 41);
    const createSet = await generateJpegs(path.join(media, 'create'), 'create', n, 42);
    const filesSet = await generateJpegs(path.join(media, 'files'), 'files', n, 43);
    const archiveSet = await generateJpegs(path.join(media, 'archive'), 'archive', n, 44);
    const s3Set = await generateJpegs(path.join(media, 's3'), 's3', n, 45);
    const scaleSet = await generateJpegs(path.join(media, 'scale'), 'scale', 5, 46);
    const genSeconds = secs(genStart, performance.now());

    const prepStart = performance.now();
    const zipPath = path.join(media, 'add-media.zip');
    await writeStoredZip(zipPath, archiveSet);
    const zipBytes = (await stat(zipPath)).size;
    s3 = await startS3rver();
    await uploadToS3(s3, s3Set);
    const prepSeconds = secs(prepStart, performance.now());

    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        LOCAL_MEDIA_ROOTS: media,
        // All N files go in one add_media request; the default cap is 500.
        MAX_FILES_PER_REQUEST: String(Math.max(500, n)),
        ...s3.env,
      },
      { role: 'all' },
    );
    loupe = await startLoupe(config);
    const db = loupe.container.database.db;
    const issued = await loupe.container.services.auth.createUser('bench-add-media@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const url = loupe.url!;
    const api = client(url, token);

    // The base dataset (also the warm-up: JIT, pools, sharp, the embedder in every image worker).
    const base = await ingest(url, token, 'bench-add-media-base', baseSet);
    if (base.nImages !== BASE_IMAGES) throw new Error(`base dataset reached ${base.nImages} images, expected ${BASE_IMAGES}`);
    const id = base.datasetId;

    // a. Creation baseline: a new dataset from N files, upload + processing to READY.
    await settle();
    const created = await ingest(url, token, 'bench-add-media-create', createSet);
    if (created.nImages !== n) throw new Error(`creation reached ${created.nImages} images, expected ${n}`);
    const creation: CaseResult = { name: 'a. creation: new dataset (batches of 50 -> READY)', images: n, bytes: created.bytes, t: { start: created.t.start, accepted: created.t.uploaded, done: created.t.ready }, taskId: created.taskId, datasetId: created.datasetId };

    // b-d. add_media, one request each, to the same dataset, each waited for until PARTIAL INDEX.
    let expected = BASE_IMAGES;
    const addCase = async (name: string, files: GeneratedFile[], bytes: number, form: () => Promise<FormData>): Promise<CaseResult> => {
      await settle();
      const known = await api.knownTasks(id, 'MEDIA_ADDITION');
      const body = await form();
      const start = performance.now();
      await api.call('POST', `/api/v1/dataset/${id}/add_media`, body, 202);
      const accepted = performance.now();
      const done = await api.waitTask(id, 'MEDIA_ADDITION', known, 'PARTIAL INDEX');
      expected += files.length;
      if (done.dataset.n_images !== expected) throw new Error(`${name}: the dataset has ${done.dataset.n_images} images, expected ${expected}`);
      return { name, images: files.length, bytes, t: { start, accepted, done: done.seen }, itemsAfter: done.dataset.n_images, message: done.task.status_message, taskId: done.task.task_id, datasetId: id };
    };
    const viaFiles = await addCase(`b. add_media files (${n} parts, one request)`, filesSet, sizeOf(filesSet), () => filesForm(filesSet));
    const viaArchive = await addCase('c. add_media archive (.zip, stored)', archiveSet, zipBytes, async () => {
      const form = new FormData();
      form.append('archive', await openAsBlob(zipPath), 'add-media.zip');
      return form;
    });
    const s3Uri = `s3://${BUCKET}/${S3_PREFIX}`;
    const viaS3 = await addCase('d. add_media s3_uri (s3rver folder)', s3Set, sizeOf(s3Set), async () => {
      const form = new FormData();
      form.append('s3_uri', s3Uri);
      return form;
    });

    // e. Reindex of the dataset (base + 3N images) from PARTIAL INDEX to READY.
    await settle();
    const reindexOf = async (datasetId: string, status: string) => {
      const known = await api.knownTasks(datasetId, 'REINDEX');
      const start = performance.now();
      await api.call('POST', `/api/v1/dataset/${datasetId}/reindex`, undefined, 202);
      const accepted = performance.now();
      const done = await api.waitTask(datasetId, 'REINDEX', known, status);
      return { start, accepted, done };
    };
    const re = await reindexOf(id, 'READY');
    const reindex: CaseResult = { name: 'e. reindex (POST reindex -> READY)', images: re.done.dataset.n_images, bytes: 0, t: { start: re.start, accepted: re.accepted, done: re.done.seen }, taskId: re.done.task.task_id, datasetId: id };
    if (reindex.images !== expected) throw new Error(`reindex: the dataset has ${reindex.images} images, expected ${expected}`);
    const reindexSplit = await indexSplit(db, re.done.task.task_id);

    // Reindex at scale: a small real dataset, then scaleItems synthetic media with embeddings seeded into its head.
    await settle();
    const scaleBase = await ingest(url, token, 'bench-add-media-reindex-scale', scaleSet);
    const seedStart = performance.now();
    const seeded = await seedMedia(db, scaleBase.datasetId, scaleItems);
    const seedSeconds = secs(seedStart, performance.now());
    await settle();
    const scale = await reindexOf(scaleBase.datasetId, 'READY');
    const scaleTotal = scaleItems + scaleBase.nImages;
    if (scale.done.dataset.n_images !== scaleTotal) throw new Error(`scale reindex: the dataset has ${scale.done.dataset.n_images} images, expected ${scaleTotal}`);
    const scaleSplit = await indexSplit(db, scale.done.task.task_id);
    const scaleSeconds = secs(scale.start, scale.done.seen);

    const creationRate = n / secs(creation.t.start, creation.t.done);
    const rows: string[][] = [];
    const goals: Goal[] = [];
    const caseRow = (c: CaseResult, ratio: boolean) => {
      const s = secs(c.t.start, c.t.done);
      rows.push([
        c.name,
        String(c.images),
        c.bytes > 0 ? fixed(c.bytes / MB, 1) : '-',
        fixed(secs(c.t.start, c.t.accepted), 2),
        fixed(s, 2),
        fixed(c.images / s, 1),
        ratio ? fixed(c.images / s / creationRate, 2) : '-',
        fixed(rss.peak(c.t.start, c.t.done) / MB, 0),
      ]);
      return c.images / s;
    };
    caseRow(creation, true);
    for (const c of [viaFiles, viaArchive, viaS3]) {
      const rate = caseRow(c, true);
      goals.push({
        description: `${c.name.slice(3)}: >= ${GOAL_RATIO * 100} % of creation throughput (same count of same-kind JPEGs)`,
        actual: `${fixed(rate, 1)} vs ${fixed(creationRate, 1)} images/s = ${fixed(100 * (rate / creationRate), 1)} %`,
        pass: rate / creationRate >= GOAL_RATIO,
      });
    }
    caseRow(reindex, false);
    rows.push([
      `f. reindex at scale (${scaleItems} seeded + ${scaleBase.nImages} real)`,
      String(scaleTotal),
      '-',
      fixed(secs(scale.start, scale.accepted), 2),
      fixed(scaleSeconds, 2),
      fixed(scaleTotal / scaleSeconds, 0),
      '-',
      fixed(rss.peak(scale.start, scale.done.seen) / MB, 0),
    ]);
    const atGoalSize = scaleItems >= GOAL_REINDEX_ITEMS;
    goals.push({
      description: `reindex of ${GOAL_REINDEX_ITEMS} media < ${GOAL_REINDEX_S} s (POST reindex -> READY seen)`,
      actual: atGoalSize ? `${fixed(scaleSeconds, 2)} s for ${scaleTotal} media` : `not measured at ${GOAL_REINDEX_ITEMS}: ran ${scaleTotal} media in ${fixed(scaleSeconds, 2)} s (BENCH_REINDEX_ITEMS=${scaleItems})`,
      pass: atGoalSize && scaleSeconds < GOAL_REINDEX_S,
    });

    const split = (c: CaseResult) => `request (upload + intake) ${fixed(secs(c.t.start, c.t.accepted), 2)} s, then processing to PARTIAL INDEX ${fixed(secs(c.t.accepted, c.t.done), 2)} s`;
    const indexLine = (label: string, s: Awaited<ReturnType<typeof indexSplit>>, start: number, end: number) =>
      `  ${label}: POST -> version forked ${fixed(secs(start, s.forked), 2)} s (queue pickup + copy of the head); graph ${fixed(s.graph, 2)} s, clusters ${fixed(s.clusters, 2)} s ` +
      `(computeIndex); read vectors + save + write rows + commit ${fixed(secs(s.forked, s.committed) - s.graph - s.clusters, 2)} s; commit -> READY seen ${fixed(secs(s.committed, end), 2)} s` +
      ` (${s.exact ? 'exact' : 'HNSW'} graph).`;
    const stageLine = async (label: string, c: CaseResult) => {
      const m = await mediaSplit(db, c.datasetId, c.taskId);
      return (
        `  ${label}: 202 -> first media row ${fixed(secs(c.t.accepted, m.firstMedia), 2)} s; first -> last media row ${fixed(secs(m.firstMedia, m.lastMedia), 2)} s ` +
        `(${fixed((c.images - 1) / secs(m.firstMedia, m.lastMedia), 1)} images/s); last media -> version forked ${fixed(secs(m.lastMedia, m.forked), 2)} s; ` +
        `forked -> commit ${fixed(secs(m.forked, m.committed), 2)} s; commit -> done seen ${fixed(secs(m.committed, c.t.done), 2)} s.`
      );
    };
    const stages = [
      await stageLine('a', creation),
      await stageLine('b', viaFiles),
      await stageLine('c', viaArchive),
      await stageLine('d', viaS3),
    ];
    const meanKb = sizeOf(filesSet) / n / 1000;
    return {
      title: `Adding media: ${n} JPEGs per source (files, archive, S3) against dataset creation; reindex, and reindex of ${scaleTotal} media`,
      notes: [
        `Media: 1 base set of ${BASE_IMAGES} and 4 sets of ${n} distinct 1024x768 JPEGs (q85, ${fixed(meanKb, 0)} KB mean), each set its own seed (nothing dedupes),`,
        `  generated before timing in ${fixed(genSeconds, 0)} s; the .zip (STORE, ${fixed(zipBytes / MB, 1)} MB) built and the S3 set uploaded to s3rver before timing (${fixed(prepSeconds, 1)} s).`,
        `Loupe: startLoupe(role all), embedded PostgreSQL, pino silent, MEDIA_CONCURRENCY ${config.media.concurrency}, INDEX_THREADS ${config.indexThreads}, MAX_FILES_PER_REQUEST`,
        `  ${config.upload.maxFilesPerRequest}; ${os.cpus().length} CPUs. s3rver runs in this process (its serving shares the event loop and the RSS figures).`,
        `Base dataset: ${BASE_IMAGES} JPEGs through the ingestion flow (also the warm-up). Cases run one after another, a forced GC before each:`,
        '  a. a new dataset from N files: new_dataset, data_files, batches of 50 (multipart, streamed from disk), process_files, poll -> READY;',
        '  b-d. add_media to the base dataset, ONE request each (files: N parts streamed from disk; archive: the .zip; s3_uri: the',
        `     folder ${s3Uri}), then the task list polled every ${POLL_MS} ms until the MEDIA_ADDITION task is COMPLETED (dataset PARTIAL INDEX);`,
        `  e. POST reindex on it (${BASE_IMAGES} + 3N images) -> REINDEX task COMPLETED, dataset READY.`,
        '  "request s" = request sent -> 202 (files and archive are stored into the blob store inside the request; s3 only lists);',
        '     for a, the upload (new_dataset to the last batch answered).',
        `  images/s = images / (start -> done seen); ratio = that / creation's images/s (${fixed(creationRate, 1)}).`,
        `  b: ${split(viaFiles)}; c: ${split(viaArchive)}; d: ${split(viaS3)}.`,
        '  Split by the database (media.created_at per file of the batch, the task\'s version created_at, tasks.end_time; a forks its',
        '  version for the index stage, b-d for the attach stage):',
        ...stages,
        `  Final task messages: b "${viaFiles.message}", c "${viaArchive.message}", d "${viaS3.message}".`,
        `f. Reindex at scale: a dataset of ${scaleBase.nImages} real JPEGs (ingestion flow -> READY), then ${scaleItems} synthetic IMAGE media rows with 480-d`,
        `  embeddings (n/${ITEMS_PER_CENTRE} Gaussian centres, spread 0.3-0.9, 2 % duplicates, 1 % noise; as bench/index-graph.ts) and phashes written`,
        `  straight into media, media_embeddings and the head's version_media (${fixed(seedSeconds, 1)} s, untimed), the dataset set to PARTIAL INDEX;`,
        `  then timed through the API: POST reindex -> REINDEX task COMPLETED (polled every ${POLL_MS} ms) and READY. Model ${seeded.model}.`,
        indexLine(`e (${reindex.images} media)`, reindexSplit, reindex.t.start, reindex.t.done),
        indexLine(`f (${scaleTotal} media)`, scaleSplit, scale.start, scale.done.seen),
        `Peak RSS: this process (Loupe, its worker threads, s3rver; not PostgreSQL) sampled every 100 ms over each case. MB = 10^6 bytes.`,
      ],
      columns: ['case', 'images', 'MB', 'request s', 'seconds', 'images/s', 'vs creation', 'peak RSS MB'],
      rows,
      goals,
    };
  } finally {
    rss.stop();
    await loupe?.close();
    await s3?.close();
    await rm(media, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

type Db = Loupe['container']['database']['db'];

/** From the database: when the task's version was forked, the commit (task end_time), and computeIndex's own timings. */
async function indexSplit(db: Db, taskId: string) {
  const version = await db.selectFrom('versions').select(['id', 'created_at']).where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const task = await db.selectFrom('tasks').select('end_time').where('id', '=', taskId).executeTakeFirstOrThrow();
  const index = await db.selectFrom('version_indexes').select('params').where('version_id', '=', version.id).executeTakeFirstOrThrow();
  const params = index.params as { exact_graph?: boolean; seconds?: { graph?: number; clusters?: number } };
  const perf = (d: Date) => d.getTime() - performance.timeOrigin;
  return {
    forked: perf(version.created_at),
    committed: task.end_time ? perf(task.end_time) : Number.NaN,
    graph: params.seconds?.graph ?? Number.NaN,
    clusters: params.seconds?.clusters ?? Number.NaN,
    exact: params.exact_graph === true,
  };
}

/** When the batch's first and last media rows were written, its task's version forked, and the task committed (performance.now() scale). */
async function mediaSplit(db: Db, datasetId: string, taskId: string) {
  const task = await db.selectFrom('tasks').select(['end_time', 'config']).where('id', '=', taskId).executeTakeFirstOrThrow();
  const transId = Number((task.config as { trans_id?: unknown }).trans_id);
  let q = db
    .selectFrom('upload_files as f')
    .innerJoin('media as m', 'm.id', 'f.media_id')
    .select((eb) => [eb.fn.min('m.created_at').as('first'), eb.fn.max('m.created_at').as('last')])
    .where('f.dataset_id', '=', datasetId);
  if (Number.isInteger(transId)) q = q.where('f.trans_id', '=', transId);
  const media = await q.executeTakeFirstOrThrow();
  const version = await db.selectFrom('versions').select('created_at').where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const perf = (d: Date | string | null) => (d === null ? Number.NaN : new Date(d).getTime() - performance.timeOrigin);
  return { firstMedia: perf(media.first), lastMedia: perf(media.last), forked: perf(version.created_at), committed: perf(task.end_time) };
}

const SEED_CHUNK = 1000;

/**
 * Writes `count` synthetic IMAGE media, their embeddings (the dataset's model) and their membership of the
 * dataset's head version, then sets the dataset to PARTIAL INDEX, the only status a reindex starts from.
 */
async function seedMedia(db: Db, datasetId: string, count: number): Promise<{ model: string }> {
  const dataset = await db.selectFrom('datasets').select(['head_version_id', 'embedding_config']).where('id', '=', datasetId).executeTakeFirstOrThrow();
  if (!dataset.head_version_id || !dataset.embedding_config) throw new Error('the reindex dataset has no head version or embedding config');
  const headId = dataset.head_version_id;
  const model = modelKey(dataset.embedding_config);
  const d = dataset.embedding_config.dimensions;
  const { vectors, phashes } = generate(count, d, 47);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += SEED_CHUNK) {
      const end = Math.min(count, start + SEED_CHUNK);
      const rows = [];
      for (let i = start; i < end; i++) {
        rows.push({
          blob_hash: `bench-synthetic-${String(i).padStart(8, '0')}`,
          media_type: 'IMAGE' as const,
          file_name: `synthetic-${String(i + 1).padStart(6, '0')}.jpg`,
          format: 'jpeg',
          mime: 'image/jpeg',
          size: 150_000,
          width: 1024,
          height: 768,
          phash: phashes[i]!,
        });
      }
      const ids = await trx.insertInto('media').values(rows).returning('id').execute();
      await trx
        .insertInto('media_embeddings')
        .values(ids.map((r, k) => ({ media_id: r.id, model, vector: vectorToBytes(vectors.subarray((start + k) * d, (start + k + 1) * d)) })))
        .execute();
      await trx
        .insertInto('version_rows')
        .values(ids.map((r) => ({ version_id: headId, media_id: r.id })))
        .execute();
    }
    await trx.updateTable('datasets').set({ status_new: 'PARTIAL INDEX' }).where('id', '=', datasetId).execute();
  });
  await sql`analyze media, media_embeddings, version_rows`.execute(db);
  return { model };
}
