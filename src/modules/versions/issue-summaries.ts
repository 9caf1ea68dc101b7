import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { IssueType } from '../../core/vql.js';
import { type VersionIssue, hasFlag, isOddArea, liveExactDuplicateIds, oddArea, oddAspectRatio } from '../explore/quality-issues.js';
import { rowOf, wideRows } from './cluster-summaries.js';

/**
 * A version's issue counts and its exact duplicates and odd sizes (migration 0047), written when it becomes a head, as
 * its cluster summaries are: whole for an indexed version, from what its change added, removed or re-flagged for a
 * delta (docs/curation.md).
 */

/** Advisory locks on `prefix || version id` keep two transactions from summarising one version's issues. */
const LOCK_PREFIX = 'issues:';
/** Distinct areas a version's histogram keeps; past it the median of a changed membership is computed from its media. */
export const AREA_HISTOGRAM_MAX = 20_000;

/** The issues counted on a version row `r` and its media `m`, one flag each; the version issues are counted from their rows. */
const COUNTED_ON_ROWS: Partial<Record<IssueType, (r: string) => RawBuilder<boolean>>> = {
  blur: () => hasFlag('m', 'blurry'),
  dark: () => hasFlag('m', 'dark'),
  bright: () => hasFlag('m', 'bright'),
  grayscale: () => hasFlag('m', 'grayscale'),
  low_information: () => hasFlag('m', 'low_information'),
  odd_aspect_ratio: () => sql<boolean>`coalesce(${oddAspectRatio('m')}, false)`,
  outliers: (r) => sql<boolean>`coalesce(${sql.ref(`${r}.is_outlier`)}, false)`,
  duplicates: (r) => sql<boolean>`${sql.ref(`${r}.duplicate_group`)} is not null`,
};
const ROW_ISSUES = Object.keys(COUNTED_ON_ROWS) as IssueType[];
const VERSION_ISSUES: VersionIssue[] = ['exact_duplicates', 'odd_size'];
const VISUAL = sql`m.media_type in ('IMAGE', 'VIDEO_FRAME')`;
const AREA = sql<number>`m.width::float8 * m.height`;

interface IssueState {
  n_media: number;
  median_area: number | null;
  counts: Record<string, number>;
  areas: number[] | null;
  area_counts: number[] | null;
}

async function stateOf(db: Db, versionId: string): Promise<IssueState | undefined> {
  const { rows } = await sql<IssueState>`select n_media, median_area, counts, areas, area_counts from version_issues where version_id = ${versionId}::uuid`.execute(db);
  return rows[0];
}

async function baseOf(db: Db, versionId: string): Promise<string | null> {
  const row = await db.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  return row?.base_id ?? null;
}

/** percentile_cont(0.5) of the areas the histogram counts, as PostgreSQL computes it; null without any. */
export function histogramMedian(areas: number[], counts: number[]): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const lo = Math.floor((total - 1) / 2);
  const hi = Math.ceil((total - 1) / 2);
  let seen = 0;
  let a: number | null = null;
  for (let i = 0; i < areas.length; i++) {
    seen += counts[i]!;
    if (a === null && seen > lo) a = areas[i]!;
    if (seen > hi) return a! + (areas[i]! - a!) * ((total - 1) / 2 - lo);
  }
  return a;
}

async function insertState(trx: Db, versionId: string, s: IssueState): Promise<void> {
  await sql`insert into version_issues (version_id, n_media, median_area, counts, areas, area_counts)
    values (${versionId}::uuid, ${s.n_media}::int, ${s.median_area}::float8, ${JSON.stringify(s.counts)}::jsonb, ${s.areas}::float8[], ${s.area_counts}::int[])`.execute(trx);
}

async function countIssueRows(trx: Db, versionId: string): Promise<Record<VersionIssue, number>> {
  const { rows } = await sql<{ issue: VersionIssue; n: number }>`select issue, count(*)::int as n from version_issue_media
    where version_id = ${versionId}::uuid group by issue`.execute(trx);
  return Object.fromEntries(VERSION_ISSUES.map((i) => [i, rows.find((r) => r.issue === i)?.n ?? 0])) as Record<VersionIssue, number>;
}

/** Every media of the version `rows` (its wide rows) of odd size against `median`. */
async function insertOddSizes(trx: Db, versionId: string, rows: RawBuilder<unknown>, median: number | null): Promise<void> {
  await sql`insert into version_issue_media (version_id, issue, media_id)
    select ${versionId}::uuid, 'odd_size', m.id from ${rows} w join media m on m.id = w.media_id
    where ${VISUAL} and m.width is not null and coalesce(${oddArea(AREA, sql`${median}::float8`)}, false)`.execute(trx);
}

/** The median area of the version's images and frames, from its media (a pass over its rows). */
async function medianFromRows(trx: Db, rows: RawBuilder<unknown>): Promise<number | null> {
  const { rows: r } = await sql<{ median: number | null }>`select percentile_cont(0.5) within group (order by ${AREA}) as median
    from ${rows} w join media m on m.id = w.media_id where ${VISUAL} and m.width is not null`.execute(trx);
  return r[0]!.median;
}

/**
 * Summarises the version from its media: one pass for the counts and the area histogram, one sort per hash for the
 * exact duplicates, one pass for the odd sizes (and one more for the median when the areas are too many to keep).
 */
async function writeAll(trx: Db, versionId: string, baseId: string | null): Promise<void> {
  const rows = wideRows(versionId, baseId);
  const flags = ROW_ISSUES.map((issue) => sql`count(*) filter (where ${COUNTED_ON_ROWS[issue]!('w')})::int as ${sql.ref(issue)}`);
  const { rows: groups } = await sql<{ n_media: number; n_areas: number; areas: number[] | null; area_counts: number[] | null } & Record<string, number>>`
    with g as (select ${AREA} as area, count(*)::int as n, ${sql.join(flags)} from ${rows} w join media m on m.id = w.media_id where ${VISUAL} group by 1)
    select coalesce(sum(n), 0)::int as n_media, ${sql.join(ROW_ISSUES.map((i) => sql`coalesce(sum(${sql.ref(i)}), 0)::int as ${sql.ref(i)}`))},
      count(area)::int as n_areas,
      array_agg(area order by area) filter (where area is not null) as areas, array_agg(n order by area) filter (where area is not null) as area_counts
    from g`.execute(trx);
  const g = groups[0]!;
  const keep = g.n_areas <= AREA_HISTOGRAM_MAX;
  const areas = keep ? (g.areas ?? []).map(Number) : null;
  const areaCounts = keep ? (g.area_counts ?? []) : null;
  const median = areas && areaCounts ? histogramMedian(areas, areaCounts) : await medianFromRows(trx, rows);
  await sql`insert into version_issue_media (version_id, issue, media_id)
    select ${versionId}::uuid, 'exact_duplicates', x.id from (${liveExactDuplicateIds(sql`${versionId}::uuid`)}) x`.execute(trx);
  await insertOddSizes(trx, versionId, rows, median);
  const counts = Object.fromEntries(ROW_ISSUES.map((i) => [i, g[i]!]));
  await insertState(trx, versionId, { n_media: g.n_media, median_area: median, counts: { ...counts, ...(await countIssueRows(trx, versionId)) }, areas, area_counts: areaCounts });
}

/** Whether the media `media` (a column reference) is a member of the delta version (its own rows, or its base's). */
function memberOf(versionId: string, baseId: string, media: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from version_rows r where r.version_id = ${versionId}::uuid and r.media_id = ${media})
    or exists (select 1 from version_rows b where b.version_id = ${baseId}::uuid and b.media_id = ${media}))`;
}

/**
 * Summarises a delta version from `reference` (the previous head over the same base, or the base), which differs from it
 * only in the rows either holds itself: counts move by what those rows gained or lost; an exact-duplicate group is
 * looked at again only where a media joined or left it (so a copy attached later makes its original a duplicate too);
 * the median follows the area histogram, and the odd sizes are recomputed whole only when the new median moves a
 * member's area across a threshold. Cost: the rows of the change and the hash groups they touch.
 */
async function writeDelta(trx: Db, versionId: string, baseId: string, referenceId: string, reference: IssueState): Promise<void> {
  const V = sql`${versionId}::uuid`;
  const R = sql`${referenceId}::uuid`;
  const candidates =
    referenceId === baseId
      ? sql`select media_id from version_rows where version_id = ${V}`
      : sql`select media_id from version_rows where version_id = ${V} union select media_id from version_rows where version_id = ${R}`;
  const perIssue = ROW_ISSUES.flatMap((issue) => [
    sql`(n.media_id is not null and ${COUNTED_ON_ROWS[issue]!('n')}) as ${sql.ref(`new_${issue}`)}`,
    sql`(o.media_id is not null and ${COUNTED_ON_ROWS[issue]!('o')}) as ${sql.ref(`old_${issue}`)}`,
  ]);
  await sql`drop table if exists issue_changes`.execute(trx);
  await sql`create temp table issue_changes on commit drop as
    select c.media_id, n.media_id is not null as in_new, o.media_id is not null as in_old, ${AREA} as area, m.blob_hash, m.pixel_hash, ${sql.join(perIssue)}
    from (${candidates}) c join media m on m.id = c.media_id
    left join lateral ${rowOf(versionId, baseId)} n on true
    left join lateral ${rowOf(referenceId, referenceId === baseId ? null : baseId)} o on true
    where ${VISUAL}`.execute(trx);
  const { rows: sums } = await sql<Record<string, number>>`select coalesce(sum(in_new::int - in_old::int), 0)::int as n_media,
    ${sql.join(ROW_ISSUES.map((i) => sql`coalesce(sum(${sql.ref(`new_${i}`)}::int - ${sql.ref(`old_${i}`)}::int), 0)::int as ${sql.ref(i)}`))}
    from issue_changes`.execute(trx);
  const moved = (await sql<{ area: number; d: number }>`select area, sum(in_new::int - in_old::int)::int as d from issue_changes
    where in_new <> in_old and area is not null group by area`.execute(trx)).rows;
  const { rows: left } = await sql<{ n: number }>`select count(*)::int as n from issue_changes where in_new <> in_old`.execute(trx);
  const membershipChanged = left[0]!.n > 0;

  // The median: from the histogram moved by the media that joined or left, else (too many areas) from the rows.
  let areas = reference.areas;
  let areaCounts = reference.area_counts;
  let median = reference.median_area;
  if (moved.length > 0 || (membershipChanged && !areas)) {
    if (areas && areaCounts) {
      const histogram = new Map(areas.map((a, i) => [a, areaCounts![i]!]));
      for (const { area, d } of moved) histogram.set(Number(area), (histogram.get(Number(area)) ?? 0) + d);
      const kept = [...histogram].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
      areas = kept.length <= AREA_HISTOGRAM_MAX ? kept.map(([a]) => a) : null;
      areaCounts = areas ? kept.map(([, n]) => n) : null;
      median = areas ? histogramMedian(areas, areaCounts!) : await medianFromRows(trx, wideRows(versionId, baseId));
    } else {
      median = await medianFromRows(trx, wideRows(versionId, baseId));
    }
  }

  // Exact duplicates: the reference's, but for the members sharing a hash with a media that joined or left, probed again.
  await sql`insert into version_issue_media (version_id, issue, media_id)
    with changed as (select * from issue_changes where in_new <> in_old),
    touched as (
      select d.id from media d where d.blob_hash in (select blob_hash from changed) and d.media_type in ('IMAGE', 'VIDEO_FRAME') and ${memberOf(versionId, baseId, sql`d.id`)}
      union
      select d.id from media d where d.pixel_hash in (select pixel_hash from changed where pixel_hash is not null) and d.media_type in ('IMAGE', 'VIDEO_FRAME')
        and ${memberOf(versionId, baseId, sql`d.id`)}
    ),
    same as (
      select t.id from touched t join media m on m.id = t.id
      where exists (select 1 from media d where d.blob_hash = m.blob_hash and d.id <> m.id and d.media_type in ('IMAGE', 'VIDEO_FRAME') and ${memberOf(versionId, baseId, sql`d.id`)})
        or (m.pixel_hash is not null and exists (select 1 from media d where d.pixel_hash = m.pixel_hash and d.id <> m.id and d.media_type in ('IMAGE', 'VIDEO_FRAME')
          and ${memberOf(versionId, baseId, sql`d.id`)}))
    )
    select ${V}, 'exact_duplicates', s.media_id from version_issue_media s where s.version_id = ${R} and s.issue = 'exact_duplicates'
      and s.media_id not in (select id from touched) and s.media_id not in (select media_id from changed where in_old)
    union all
    select ${V}, 'exact_duplicates', id from same`.execute(trx);

  // Odd sizes: recomputed whole when a member's area changes sides at the new median (or no histogram tells), else moved.
  const flips = median !== reference.median_area && (!areas || areas.some((a) => isOddArea(a, median) !== isOddArea(a, reference.median_area)));
  if (flips) {
    await insertOddSizes(trx, versionId, wideRows(versionId, baseId), median);
  } else {
    await sql`insert into version_issue_media (version_id, issue, media_id)
      select ${V}, 'odd_size', s.media_id from version_issue_media s where s.version_id = ${R} and s.issue = 'odd_size'
        and s.media_id not in (select media_id from issue_changes where in_old and not in_new)
      union all
      select ${V}, 'odd_size', c.media_id from issue_changes c where c.in_new and not c.in_old and c.area is not null
        and coalesce(${oddArea(sql`c.area`, sql`${median}::float8`)}, false)`.execute(trx);
  }
  const s = sums[0]!;
  const counts = Object.fromEntries(ROW_ISSUES.map((i) => [i, (reference.counts[i] ?? 0) + s[i]!]));
  await insertState(trx, versionId, {
    n_media: reference.n_media + s.n_media!,
    median_area: median,
    counts: { ...counts, ...(await countIssueRows(trx, versionId)) },
    areas,
    area_counts: areaCounts,
  });
}

/**
 * Gives a version becoming its dataset's head its stored issues, unless it has them (a restored snapshot): from the
 * previous head or its base when it is a delta over a summarised one, else from all its media.
 */
export async function refreshIssueSummary(trx: Db, versionId: string, previousHeadId: string | null): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${LOCK_PREFIX} || ${versionId}::text))`.execute(trx);
  if (await stateOf(trx, versionId)) return;
  const baseId = await baseOf(trx, versionId);
  if (!baseId) return writeAll(trx, versionId, null);
  if (previousHeadId && previousHeadId !== versionId && (previousHeadId === baseId || (await baseOf(trx, previousHeadId)) === baseId)) {
    const previous = await stateOf(trx, previousHeadId);
    if (previous) return writeDelta(trx, versionId, baseId, previousHeadId, previous);
  }
  const base = await stateOf(trx, baseId);
  return base ? writeDelta(trx, versionId, baseId, baseId, base) : writeAll(trx, versionId, baseId);
}

/** Summarises the issues of one dataset head that has none (made before migration 0047); returns whether one was found. */
export async function summariseOneHeadIssues(db: Db): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`select d.head_version_id as id from datasets d
      where d.head_version_id is not null and not exists (select 1 from version_issues s where s.version_id = d.head_version_id)
        and pg_try_advisory_xact_lock(hashtext(${LOCK_PREFIX} || d.head_version_id::text))
      limit 1`.execute(trx);
    const head = rows[0];
    if (!head) return false;
    await refreshIssueSummary(trx, head.id, null);
    return true;
  });
}

