import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type { Db } from '../src/adapters/db/database.js';
import type { Database } from '../src/adapters/db/schema.js';
import { loadConfig } from '../src/config.js';
import { emptyFilters } from '../src/core/vql.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import type { ExplorePageQuery } from '../src/modules/explore/explore-rows.js';
import { ExploreRepo } from '../src/modules/explore/explore.repo.js';
import { refreshClusterSummaries } from '../src/modules/versions/cluster-summaries.js';
import { VersionsRepo } from '../src/modules/versions/versions.repo.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { type BenchReport, type Goal, fixed, median } from './lib/report.js';
import { seedIndexedDataset } from './lib/seed-media.js';

const PAGE_GOAL_MS = 150;
const SIZE_GOAL_BYTES = 500_000;
const SMALL_RATIO_GOAL = 1.2;
const SMALL_MEDIA = 1000;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

/**
 * Explore at scale (BENCH_EXPLORE_MEDIA, default 100000; BENCH_EXPLORE_REPEATS, default 20): unfiltered pages at
 * every level, page 0 and 50, read from the cluster summaries; the response size at threshold 4 with the default
 * previews; a filtered page of a 1,000-media dataset alone and beside the big one; and the summaries' build.
 * BENCH_EXPLAIN=1 adds EXPLAIN ANALYZE of the unfiltered page's statements.
 */
export async function explore(): Promise<BenchReport> {
  const n = Number(process.env.BENCH_EXPLORE_MEDIA ?? 100_000);
  const repeats = Number(process.env.BENCH_EXPLORE_REPEATS ?? 20);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  const rows: string[][] = [];
  const goals: Goal[] = [];
  const details: string[] = [];
  try {
    loupe = await startLoupe(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' }));
    const { db } = loupe.container.database;
    const issued = await loupe.container.services.auth.createUser('bench-explore@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const get = async (route: string) => {
      const start = performance.now();
      const res = await fetch(`${loupe!.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      const elapsed = performance.now() - start;
      if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${text}`);
      return { elapsed, bytes: Buffer.byteLength(text) };
    };
    const timed = async (route: string, times: number) => {
      await get(route);
      const xs: number[] = [];
      for (let i = 0; i < times; i++) xs.push((await get(route)).elapsed);
      return xs;
    };

    const small = await seedIndexedDataset(loupe, issued.user_id, 'bench-explore-small', SMALL_MEDIA);
    const smallQueries = { unfiltered: `/api/v1/explore/${small}?threshold=0`, 'media_type filter (every row)': `/api/v1/explore/${small}?threshold=0&media_type=IMAGE` };
    const alone = new Map<string, number[]>();
    for (const [name, query] of Object.entries(smallQueries)) alone.set(name, await timed(query, repeats));

    const seedStart = performance.now();
    const big = await seedIndexedDataset(loupe, issued.user_id, 'bench-explore-big', n);
    const seedS = (performance.now() - seedStart) / 1000;
    const { head_version_id: versionId } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', big).executeTakeFirstOrThrow();
    const buildStart = performance.now();
    await db.transaction().execute(async (trx) => {
      await sql`delete from cluster_summaries where version_id = ${versionId}::uuid`.execute(trx);
      await sql`delete from version_summaries where version_id = ${versionId}::uuid`.execute(trx);
      await refreshClusterSummaries(trx, versionId!, null);
    });
    const buildS = (performance.now() - buildStart) / 1000;
    await sql`vacuum analyze cluster_summaries, version_summaries`.execute(db);
    rows.push([`seed ${n} media (untimed setup)`, `${fixed(seedS, 1)} s`, '', '']);
    rows.push([`summaries built whole, ${n} media`, `${fixed(buildS, 2)} s`, '', '']);

    for (const [name, query] of Object.entries(smallQueries)) {
      const smallAlone = alone.get(name)!;
      const smallBeside = await timed(query, repeats);
      const ratio = median(smallBeside) / median(smallAlone);
      rows.push([`1k dataset, ${name}, alone`, `${fixed(median(smallAlone), 1)} ms`, `${fixed(p95(smallAlone), 1)} ms`, '']);
      rows.push([`1k dataset, ${name}, beside ${n}`, `${fixed(median(smallBeside), 1)} ms`, `${fixed(p95(smallBeside), 1)} ms`, `${fixed(ratio, 2)}×`]);
      goals.push({ description: `1k dataset, ${name}, beside ${n} media within ${SMALL_RATIO_GOAL}× of alone (median)`, pass: ratio <= SMALL_RATIO_GOAL, actual: `${fixed(ratio, 2)}×` });
    }

    const pages = async (label: string) => {
      let worst = 0;
      for (let threshold = 0; threshold <= 4; threshold++) {
        for (const page of [0, 50]) {
          const xs = await timed(`/api/v1/explore/${big}?threshold=${threshold}&page_number=${page}`, repeats);
          worst = Math.max(worst, p95(xs));
          rows.push([`unfiltered${label}, threshold ${threshold}, page ${page}`, `${fixed(median(xs), 1)} ms`, `${fixed(p95(xs), 1)} ms`, '']);
        }
      }
      goals.push({ description: `unfiltered page${label} p95 < ${PAGE_GOAL_MS} ms at ${n} media (worst level/page)`, pass: worst < PAGE_GOAL_MS, actual: `${fixed(worst, 1)} ms` });
    };
    await pages('');
    if (process.env.BENCH_EXPLAIN === '1') {
      for (const [level, page] of [[0, 0], [0, 50], [4, 0]] as const) {
        details.push(`### unfiltered page, full head, threshold ${level}, page ${page}`, ...(await explainPage(loupe, { versionId: versionId!, level, page, previewsLimit: 6, filters: emptyFilters(), candidates: null, sort: 'size' })));
      }
    }

    // Two changes summarised as deltas, then rolled back: 1,000 media moved to new level-0 clusters, and 1,000 images
    // added into existing clusters (what a batch attached without a reindex does).
    const deltaCost = (change: (trx: Db, delta: string) => Promise<unknown>) =>
      db
        .transaction()
        .execute(async (trx) => {
          const delta = await new VersionsRepo(db).fork(trx, big, null, 'delta');
          await change(trx, delta);
          const start = performance.now();
          await refreshClusterSummaries(trx, delta, versionId);
          throw Object.assign(new Error('rollback'), { elapsed: performance.now() - start });
        })
        .catch((err: { elapsed?: number }) => {
          if (err.elapsed === undefined) throw err;
          return err.elapsed;
        });
    const moved = await deltaCost((trx, delta) =>
      sql`insert into version_rows (version_id, media_id, ordinal, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4, uniqueness_score, nn_similarity, is_outlier)
        select ${delta}::uuid, media_id, ordinal, gen_random_uuid(), cluster_l1, cluster_l2, cluster_l3, cluster_l4, uniqueness_score, nn_similarity, is_outlier
        from version_rows where version_id = ${versionId}::uuid order by media_id limit 1000`.execute(trx),
    );
    rows.push([`summaries of a delta moving 1,000 media at level 0`, `${fixed(moved, 0)} ms`, '', '']);
    const added = await deltaCost(async (trx, delta) => {
      await sql`create temp table bench_added on commit drop as
        select gen_random_uuid() as id, r.* from version_rows r where r.version_id = ${versionId}::uuid order by r.media_id desc limit 1000`.execute(trx);
      await sql`insert into media (id, blob_hash, media_type, file_name, format, mime, size, width, height, quality_flags, exif)
        select id, 'bench-added-' || id, 'IMAGE', 'added-' || id || '.jpg', 'jpeg', 'image/jpeg', 1000, 640, 480, '{}', '{}' from bench_added`.execute(trx);
      await sql`insert into version_rows (version_id, media_id, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4, uniqueness_score, nn_similarity, is_outlier)
        select ${delta}::uuid, id, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4, random(), random(), false from bench_added`.execute(trx);
    });
    rows.push([`summaries of a delta adding 1,000 images to existing clusters`, `${fixed(added, 0)} ms`, '', '']);

    // A tag edit makes the head a delta over the indexed version: pages read its summaries through the base.
    const { rows: some } = await sql<{ media_id: string }>`select media_id from version_rows where version_id = ${versionId}::uuid limit 10`.execute(db);
    const tagStart = performance.now();
    const tagged = await fetch(`${loupe.url}/api/v1/dataset/${big}/media/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['bench'], media_ids: some.map((r) => r.media_id) }),
    });
    if (tagged.status !== 200) throw new Error(`tags: ${tagged.status} ${await tagged.text()}`);
    rows.push(['tag edit of 10 media (delta head, summaries inherited)', `${fixed(performance.now() - tagStart, 0)} ms`, '', '']);
    await pages(' on the delta head');

    const rowsPath = await timed(`/api/v1/explore/${big}?threshold=0&page_number=0&media_type=IMAGE`, 3);
    rows.push([`same page read from the rows (media_type filter), threshold 0`, `${fixed(median(rowsPath), 1)} ms`, `${fixed(p95(rowsPath), 1)} ms`, '']);
    const bytes = (await get(`/api/v1/explore/${big}?threshold=4`)).bytes;
    rows.push(['response, threshold 4, default previews', `${fixed(bytes / 1000, 1)} KB`, '', '']);
    goals.push({ description: `response at threshold 4 with default previews < ${SIZE_GOAL_BYTES / 1000} KB`, pass: bytes < SIZE_GOAL_BYTES, actual: `${fixed(bytes / 1000, 1)} KB` });
    for (const [query, what] of [
      ['threshold=4&previews_limit=20', 'stored previews'],
      ['threshold=0&page_number=50&previews_limit=100', 'clusters all ≤ 20: stored previews'],
      ['threshold=4&previews_limit=100', 'clusters > 20: the rows'],
    ]) {
      const more = await timed(`/api/v1/explore/${big}?${query}`, 3);
      rows.push([`${query} (${what})`, `${fixed(median(more), 1)} ms`, `${fixed(p95(more), 1)} ms`, '']);
    }

    if (process.env.BENCH_EXPLAIN === '1') {
      const { head_version_id: smallVersion } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', small).executeTakeFirstOrThrow();
      const images = { ...emptyFilters(), mediaTypes: ['IMAGE' as const] };
      details.push(`### 1k dataset beside ${n}, media_type filter`, ...(await explainPage(loupe, { versionId: smallVersion!, level: 0, page: 0, previewsLimit: 6, filters: images, candidates: null, sort: 'size' })));
      const { head_version_id: deltaHead } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', big).executeTakeFirstOrThrow();
      for (const [level, page] of [[0, 0], [1, 50]] as const) {
        details.push(`### unfiltered page, delta head, threshold ${level}, page ${page}`, ...(await explainPage(loupe, { versionId: deltaHead!, level, page, previewsLimit: 6, filters: emptyFilters(), candidates: null, sort: 'size' })));
      }
    }
    const load = os.loadavg().map((x) => fixed(x, 2)).join(' ');
    return {
      title: `Explore at ${n} media`,
      notes: [`load average ${load}; ${repeats} requests a row after one warm-up`],
      columns: ['what', 'median', 'p95', ''],
      rows,
      goals,
      details,
    };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement ExploreRepo.page runs for `q`. */
async function explainPage(loupe: Loupe, q: ExplorePageQuery): Promise<string[]> {
  const captured: Array<Pick<CompiledQuery, 'sql' | 'parameters'>> = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: loupe.container.database.pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  await new ExploreRepo(db).page(q);
  const out: string[] = [];
  for (const c of captured) {
    const { rows } = await loupe.container.database.pool.query(`explain (analyze, buffers) ${c.sql}`, c.parameters as unknown[]);
    out.push('```', c.sql.replace(/\s+/g, ' ').slice(0, 600), '', ...rows.map((r: Record<string, string>) => r['QUERY PLAN']!), '```');
  }
  return out;
}
