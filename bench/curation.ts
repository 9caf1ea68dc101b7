import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { refreshIssueSummary } from '../src/modules/versions/issue-summaries.js';
import { type Loupe, startLoupe } from '../src/server.js';
import type { CurationCase, CurationContext } from './curation/case.js';
import { CURATION_CASES } from './curation/cases.js';
import { plantObjects } from './curation/plant-objects.js';
import { ingest } from './lib/ingest.js';
import { generateSmallJpegs } from './lib/media-gen.js';
import { type BenchReport, type Goal, fixed, formatTable } from './lib/report.js';
import { copyLines, seedScaleMedia, seededMediaIds } from './lib/scale-seed.js';
import { generate } from './lib/synthetic-vectors.js';

/** Image label classes the seed plants: a synthetic cluster's centre c is class c mod CLASSES. */
const CLASSES = 10;
/** One media in MISLABEL_EVERY (not isolated) has its label flipped to the next class. */
const MISLABEL_EVERY = 100;
/** The second dataset holds OTHER_SHARE of n media, LEAKED_SHARE of them copies of the first's. */
const OTHER_SHARE = 0.1;
const LEAKED_SHARE = 0.2;
/** Real images each dataset is created with (its embedding config), before the seeded media. */
const REAL_IMAGES = 10;
const OTHER_SEED = 2029;
/** Planted odd sizes: one seeded media in TINY_EVERY is 40×30, one in HUGE_EVERY 5000×4000 (the rest 1024×768). */
const TINY_EVERY = 500;
const HUGE_EVERY = 1000;
/** Every analysis at 1M media in under 5 minutes (issue 29); smaller sizes scaled linearly. */
const GOAL_S_AT_1M = 300;

const secs = (from: number) => (performance.now() - from) / 1000;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
type Db = Loupe['container']['database']['db'];

function sizesFromEnv(): number[] {
  const raw = process.env.BENCH_CURATION_SIZES?.trim() || '100000,1000000';
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error(`BENCH_CURATION_SIZES: whole numbers >= 1000, comma-separated (got ${raw})`);
  return sizes;
}

/** The cases BENCH_CURATION_CASES names (comma-separated), every case when it is unset. */
function casesFromEnv(): CurationCase[] {
  const raw = process.env.BENCH_CURATION_CASES?.trim();
  if (!raw) return CURATION_CASES;
  const names = raw.split(',').map((s) => s.trim());
  const unknown = names.filter((name) => !CURATION_CASES.some((c) => c.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_CURATION_CASES: unknown ${unknown.join(', ')} (cases: ${CURATION_CASES.map((c) => c.name).join(', ')})`);
  return CURATION_CASES.filter((c) => names.includes(c.name));
}

async function headOf(db: Db, datasetId: string): Promise<string> {
  const row = await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
  return row.head_version_id!;
}

/**
 * Labels and the `split` field of every media of the (not yet indexed) head, written with COPY as the seed writes its
 * rows: generated item i gets class centreOf[i] mod CLASSES (an isolated point: i mod CLASSES), flipped to the next
 * class for one in MISLABEL_EVERY; split train / val / test by i mod 10 (8 / 1 / 1). The real images get class-0, train.
 * Returns the media ids whose labels were flipped.
 */
async function plantLabels(loupe: Loupe, datasetId: string, n: number, centreOf: Int32Array): Promise<string[]> {
  const { db } = loupe.container.database;
  const head = await headOf(db, datasetId);
  const ids = await seededMediaIds(db, head, n);
  const { rows: realRows } = await sql<{ id: string }>`select m.id from version_rows r join media m on m.id = r.media_id
    where r.version_id = ${head}::uuid and m.file_name not like 'synthetic-%'`.execute(db);
  const real = realRows.map((r) => r.id);
  const flipped: string[] = [];
  const classOf = (i: number) => {
    const c = centreOf[i]! >= 0 ? centreOf[i]! % CLASSES : i % CLASSES;
    if (centreOf[i]! >= 0 && i % MISLABEL_EVERY === MISLABEL_EVERY - 1) {
      flipped.push(ids[i]!);
      return (c + 1) % CLASSES;
    }
    return c;
  };
  const split = (i: number) => (i % 10 < 8 ? 'train' : i % 10 === 8 ? 'val' : 'test');
  const all = [...ids, ...real];
  await copyLines(loupe, 'annotation_rows (version_id, media_id, label)', all.length, (i) => `${head}\t${all[i]}\tclass-${i < n ? classOf(i) : 0}\n`);
  await copyLines(loupe, 'field_rows (version_id, media_id, custom_fields)', all.length, (i) => `${head}\t${all[i]}\t{"split": "${i < n ? split(i) : 'train'}"}\n`);
  await db.updateTable('versions').set({ field_types: JSON.stringify({ split: 'string' }) as never }).where('id', '=', head).execute();
  return flipped;
}

/**
 * What the quality case finds: the generator's exact copies get their source's pixel hash (identical decoded pixels;
 * the other seeded media have none, as if analysed before migration 0041), and one seeded media in TINY_EVERY and in
 * HUGE_EVERY an odd size. Returns the planted counts.
 */
async function plantQuality(db: Db, datasetId: string): Promise<{ exactDuplicates: number; oddSizes: number }> {
  const head = await headOf(db, datasetId);
  const seeded = sql`select m.id, m.phash, (substring(m.file_name from 11 for length(m.file_name) - 14))::int - 1 as i from version_rows r
    join media m on m.id = r.media_id where r.version_id = ${head}::uuid and m.file_name like 'synthetic-%'`;
  const exact = await sql`update media set pixel_hash = 'px-' || media.phash from (
      select s.id from (${seeded}) s where s.phash in (select phash from (${seeded}) t group by phash having count(*) > 1)
    ) x where media.id = x.id`.execute(db);
  const tiny = await sql`update media set width = 40, height = 30 from (${seeded}) s where media.id = s.id and s.i % ${TINY_EVERY}::int = 3`.execute(db);
  const huge = await sql`update media set width = 5000, height = 4000 from (${seeded}) s where media.id = s.id and s.i % ${HUGE_EVERY}::int = 7`.execute(db);
  await sql`vacuum analyze media`.execute(db);
  return { exactDuplicates: Number(exact.numAffectedRows ?? 0n), oddSizes: Number(tiny.numAffectedRows ?? 0n) + Number(huge.numAffectedRows ?? 0n) };
}

/**
 * The second dataset's media beside its real images: `leaked` copies of the first dataset's seeded media (new media rows
 * with the same bytes, hashes and vectors, one in every n/leaked), and `own` media generated from another seed.
 */
async function seedOther(loupe: Loupe, otherId: string, firstId: string, own: number, leaked: number): Promise<void> {
  const { db } = loupe.container.database;
  const dataset = await db.selectFrom('datasets').select(['embedding_config', 'n_images']).where('id', '=', otherId).executeTakeFirstOrThrow();
  const { dimensions: d } = dataset.embedding_config!;
  const model = `${dataset.embedding_config!.model}@${dataset.embedding_config!.version}`;
  const [other, first] = [await headOf(db, otherId), await headOf(db, firstId)];
  await db.transaction().execute(async (trx) => {
    await sql`create temp table leak_map on commit drop as
      select gen_random_uuid() as id, m.id as source, row_number() over (order by m.file_name) as k, m.blob_hash, m.size, m.width, m.height, m.phash, m.pixel_hash
      from version_rows r join media m on m.id = r.media_id
      where r.version_id = ${first}::uuid and m.file_name like 'synthetic-%'
      order by hashtext(m.id::text) limit ${leaked}::int`.execute(trx);
    await sql`insert into media (id, blob_hash, media_type, file_name, format, mime, size, width, height, phash, pixel_hash)
      select id, blob_hash, 'IMAGE', 'leaked-' || k || '.jpg', 'jpeg', 'image/jpeg', size, width, height, phash, pixel_hash from leak_map`.execute(trx);
    await sql`insert into media_embeddings (media_id, model, vector) select l.id, e.model, e.vector from leak_map l
      join media_embeddings e on e.media_id = l.source and e.model = ${model}`.execute(trx);
    await sql`insert into version_rows (version_id, media_id) select ${other}::uuid, id from leak_map`.execute(trx);
  });
  let data: ReturnType<typeof generate> | null = generate(own, d, OTHER_SEED);
  const ids = Array.from({ length: own }, () => randomUUID());
  const { vectors, phashes } = data;
  await copyLines(loupe, 'media (id, blob_hash, media_type, file_name, format, mime, size, width, height, phash)', own, (i) =>
    `${ids[i]}\tbench-other-${i}\tIMAGE\tother-${i + 1}.jpg\tjpeg\timage/jpeg\t${150_000 + (i % 50_000)}\t1024\t768\t${phashes[i]}\n`,
  );
  await copyLines(loupe, 'media_embeddings (media_id, model, vector)', own, (i) => `${ids[i]}\t${model}\t\\\\x${Buffer.from(vectors.buffer, vectors.byteOffset + i * d * 4, d * 4).toString('hex')}\n`);
  await copyLines(loupe, 'version_rows (version_id, media_id)', own, (i) => `${other}\t${ids[i]}\n`);
  data = null;
  await db.updateTable('datasets').set({ status_new: 'PARTIAL INDEX', n_images: dataset.n_images + own + leaked }).where('id', '=', otherId).execute();
  await sql`vacuum analyze media, media_embeddings, version_rows`.execute(db);
}

class Rollback extends Error {}

/** Seconds to summarise the head's issues whole, as the commit of an index does (measured, then rolled back). */
async function wholeIssueSummary(db: Db, datasetId: string): Promise<number> {
  const head = await headOf(db, datasetId);
  let seconds = Number.NaN;
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`delete from version_issue_media where version_id = ${head}::uuid`.execute(trx);
      await sql`delete from version_issues where version_id = ${head}::uuid`.execute(trx);
      const start = performance.now();
      await refreshIssueSummary(trx, head, null);
      seconds = secs(start);
      throw new Rollback();
    })
    .catch((err) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return seconds;
}

interface SizeRun {
  n: number;
  rows: string[][];
  goals: Goal[];
  setup: string[];
}

/** One size: a fresh install, the seeded datasets, every case. */
async function runSize(n: number): Promise<SizeRun> {
  const goalS = (GOAL_S_AT_1M * n) / 1_000_000;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-curation-'));
  const media = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-curation-media-'));
  const setup: string[] = [];
  const rows: string[][] = [];
  const goals: Goal[] = [];
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    process.stderr.write(`  curation ${n}: ${name} (load ${load()})...\n`);
    const start = performance.now();
    const value = await work();
    setup.push(`${name}: ${fixed(secs(start), 1)} s (load at the end ${load()})`);
    // A 1M run takes the best part of an hour: each figure goes to stderr as it comes, so a cut run still has them.
    process.stderr.write(`  curation ${n}: ${setup[setup.length - 1]}\n`);
    return value;
  };
  let loupe: Loupe | null = null;
  try {
    const [firstSet, otherSet] = await Promise.all([
      generateSmallJpegs(path.join(media, 'first'), 'curation-first', REAL_IMAGES, 291),
      generateSmallJpegs(path.join(media, 'other'), 'curation-other', REAL_IMAGES, 292),
    ]);
    loupe = await startLoupe(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', EXPORT_MAX_ITEMS: String(10 * n) }, { role: 'all' }));
    const url = loupe.url!;
    const { db } = loupe.container.database;
    const issued = await loupe.container.services.auth.createUser('bench-curation@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 24 * 3600);
    const auth = { authorization: `Bearer ${token}` };
    const send: CurationContext['send'] = async (method, route, body, expect = 200) => {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: { ...auth, ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
      const parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
      // A 202 names its task only in Location (/api/v1/tasks/{id}): handed back as task_id when the body has none.
      const task = /\/api\/v1\/tasks\/([0-9a-f-]{36})$/.exec(res.headers.get('location') ?? '');
      return task && parsed.task_id === undefined ? { ...parsed, task_id: task[1] } : parsed;
    };
    const waitTask: CurationContext['waitTask'] = async (taskId) => {
      for (;;) {
        const task = await send('GET', `/api/v1/tasks/${taskId}`);
        if (task.status === 'COMPLETED') return task;
        if (task.status === 'FAILED' || task.status === 'ABORTED') throw new Error(`task ${taskId} ${task.status}: ${task.error_message ?? task.status_message}`);
        await sleep(250);
      }
    };
    const reindex = async (datasetId: string) => {
      const { task_id } = await send('POST', `/api/v1/dataset/${datasetId}/reindex`, undefined, 202);
      await waitTask(task_id);
      const dataset = await send('GET', `/api/v1/dataset/${datasetId}`);
      if (dataset.status_new !== 'READY') throw new Error(`after the reindex the dataset is ${dataset.status_new}`);
    };

    const first = (await ingest(url, token, `curation-${n}`, firstSet)).datasetId;
    const other = (await ingest(url, token, `curation-${n}-other`, otherSet)).datasetId;
    const seeded = await step(`seed ${n} media, embeddings and version rows (COPY)`, () => seedScaleMedia(loupe!, first, n));
    const mislabelled = await step('plant labels and the split field (COPY)', () => plantLabels(loupe!, first, n, seeded.truth.centreOf));
    const planted = await step('plant exact duplicates and odd sizes (UPDATE)', () => plantQuality(db, first));
    const cases = casesFromEnv();
    const objects = cases.some((c) => c.name === 'objects')
      ? await step(`plant ${n} detected objects, their crop embeddings and graph (as a detection stores them)`, async () =>
          plantObjects(loupe!, await headOf(db, first), n, seeded.truth.centreOf, CLASSES, seeded.model, seeded.dimensions))
      : null;
    if (objects) setup.push(`the objects' k-NN graph, built and stored as a detection does: ${fixed(objects.graphSeconds, 1)} s`);
    const otherSize = Math.max(1000, Math.round(n * OTHER_SHARE));
    const leakedCopies = Math.round(otherSize * LEAKED_SHARE);
    await step(`seed the second dataset (${otherSize} media, ${leakedCopies} copies of the first's)`, () => seedOther(loupe!, other, first, otherSize - leakedCopies, leakedCopies));
    await step(`reindex of ${n + REAL_IMAGES} media (POST reindex -> COMPLETED)`, () => reindex(first));
    await step(`reindex of the second dataset (${otherSize + REAL_IMAGES} media)`, () => reindex(other));

    const ctx: CurationContext = {
      url,
      auth,
      datasetId: first,
      n: n + REAL_IMAGES,
      labels: Array.from({ length: CLASSES }, (_, c) => `class-${c}`),
      mislabelled: mislabelled.length,
      mislabelledIds: mislabelled,
      otherDatasetId: other,
      leakedCopies,
      exactDuplicates: planted.exactDuplicates,
      oddSizes: planted.oddSizes,
      ...(objects ? { objects: { planted: n, flippedIds: objects.flipped } } : {}),
      send,
      waitTask,
    };
    const head = await headOf(db, first);
    const { rows: annotated } = await sql<{ labels: number; splits: number }>`select
      (select count(*)::int from version_annotations where version_id = ${head}::uuid and label is not null) as labels,
      (select count(*)::int from version_fields where version_id = ${head}::uuid and custom_fields ? 'split') as splits`.execute(db);
    setup.push(`planted on the indexed head: ${annotated[0]!.labels} labels (${mislabelled.length} flipped), ${annotated[0]!.splits} split values, ${planted.exactDuplicates} exact duplicates, ${planted.oddSizes} odd sizes; the second dataset: ${otherSize + REAL_IMAGES} media, ${leakedCopies} of them copies`);
    const whole = await wholeIssueSummary(db, first);
    rows.push(['quality', 'issue summary of the head, whole (in the reindex commit)', fixed(whole, 2), '-', `< ${fixed(goalS, 0)} s`, whole < goalS ? 'PASS' : 'MISS']);
    goals.push({ description: `${n} media: quality, whole issue summary`, actual: `${fixed(whole, 2)} s`, pass: whole < goalS });
    for (const c of cases) {
      process.stderr.write(`  curation ${n}: case ${c.name} (load ${load()})...\n`);
      try {
        const result = await c.run(ctx);
        for (const r of result.rows) {
          const pass = r.seconds < goalS;
          rows.push([c.name, r.step, fixed(r.seconds, 2), r.found, `< ${fixed(goalS, 0)} s`, pass ? 'PASS' : 'MISS']);
          process.stderr.write(`  curation ${n}: ${c.name}, ${r.step}: ${fixed(r.seconds, 2)} s, ${r.found} (${pass ? 'PASS' : 'MISS'})\n`);
          goals.push({ description: `${n} media: ${c.name}, ${r.step}`, actual: `${fixed(r.seconds, 2)} s`, pass });
        }
      } catch (err) {
        const message = err instanceof Error ? err.message.slice(0, 300) : String(err);
        rows.push([c.name, 'failed', '-', message, `< ${fixed(goalS, 0)} s`, 'MISS']);
        goals.push({ description: `${n} media: ${c.name}`, actual: `failed: ${message}`, pass: false });
      }
    }
    return { n, rows, goals, setup };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(media, { recursive: true, force: true });
  }
}

/**
 * Issue 29's analyses at BENCH_CURATION_SIZES seeded media (default 100000,1000000): per size a fresh install, a
 * dataset seeded as bench/scale.ts seeds one and reindexed for real, with labels (some flipped), a `split` field, exact
 * duplicates and odd sizes planted, and a second dataset holding copies of its media; then every case of
 * bench/curation/cases.ts, one table per size. Goal: each analysis at 1M media in under 5 minutes (scaled linearly below).
 */
export async function curation(): Promise<BenchReport> {
  const sizes = sizesFromEnv();
  const loadAtStart = load();
  const runs: SizeRun[] = [];
  for (const n of sizes) runs.push(await runSize(n));
  const columns = ['case', 'step', 'seconds', 'found', 'goal', 'PASS/MISS'];
  return {
    title: `Curation analyses (issue 29) at ${sizes.join(', ')} seeded media`,
    notes: [
      `Cases: ${casesFromEnv().map((c) => c.name).join(', ') || '(none)'}; ${os.cpus().length} CPUs; load at the start ${loadAtStart}, at the end ${load()}.`,
      'Setup per size (not goals):',
      ...runs.flatMap((r) => r.setup.map((line) => `  ${r.n}: ${line}`)),
      `The table below is the ${runs[0]?.n ?? '-'}-media run; the others follow the goals.`,
    ],
    columns,
    rows: runs[0]?.rows ?? [],
    goals: runs.flatMap((r) => r.goals),
    details: runs.slice(1).flatMap((r) => [`### ${r.n} media`, '', formatTable(columns, r.rows), '']),
  };
}
