import { type RawBuilder, sql } from 'kysely';
import { ISSUE_THRESHOLDS } from '../../adapters/media/image-quality.js';

/**
 * The SQL of issue 29's quality issues (docs/curation.md), shared by Explore's filters, the exports and the dataset's
 * issue counts. Per-image issues are a condition on the media row; exact duplicates and odd sizes are relative to a
 * version's media, stored with the version when it becomes a head (versions/issue-summaries.ts, migration 0047).
 */

const T = ISSUE_THRESHOLDS;

/** A column of the media row, under its alias, or bare (''). */
const column = (m: string, name: string) => sql.ref(m === '' ? name : `${m}.${name}`);

/**
 * An odd aspect ratio on the media row `m` ('' for `media`'s own columns). The literal 2.5 is the predicate of the
 * partial index of migration 0041, so PostgreSQL answers `select id from media where …` from that index alone.
 */
export const oddAspectRatio = (m: string) =>
  sql<boolean>`greatest(${column(m, 'width')}, ${column(m, 'height')}) > ${sql.lit(T.oddAspectRatioAbove)} * least(${column(m, 'width')}, ${column(m, 'height')})`;

/** A quality flag held by the media row `m` ('' for `media`'s own columns), as the flag indexes of 0034 and 0041 hold it. */
export const hasFlag = (m: string, flag: string) => sql<boolean>`${sql.lit(flag)} = any(${column(m, 'quality_flags')})`;

/** max(w/h, h/w) of the media `m`; null without a size. */
export const aspectRatio = (m: string) => sql<number>`greatest(${sql.ref(`${m}.width`)}, ${sql.ref(`${m}.height`)})::float8 / nullif(least(${sql.ref(`${m}.width`)}, ${sql.ref(`${m}.height`)}), 0)`;

/** The version's images and video frames, the media Explore lists, as `v(version_id, media_id) join media m`. */
const versionMedia = (version: RawBuilder<unknown>) =>
  sql`version_members v join media m on m.id = v.media_id where v.version_id = ${version} and m.media_type in ('IMAGE', 'VIDEO_FRAME')`;

/** The issues relative to a version's media, stored per version in `version_issue_media` (migration 0047). */
export type VersionIssue = 'exact_duplicates' | 'odd_size';

/**
 * Whether the version has its issues stored (versions/issue-summaries.ts writes them when it becomes a head): run once
 * per statement. Until the sweep has summarised a head of before migration 0047, they are computed from its media.
 */
const stored = (version: RawBuilder<unknown>) => sql<boolean>`exists (select 1 from version_issues where version_id = ${version})`;

/** The median area (pixels) of the version's images and frames, computed from its media. */
export const liveMedianArea = (version: RawBuilder<unknown>) =>
  sql<number>`(select percentile_cont(0.5) within group (order by m.width::float8 * m.height) from ${versionMedia(version)} and m.width is not null)`;

/** The median area of the version's images and frames: one scalar subquery, run once per statement. */
export const medianArea = (version: RawBuilder<unknown>) =>
  sql<number>`(case when ${stored(version)} then (select median_area from version_issues where version_id = ${version}) else ${liveMedianArea(version)} end)`;

/** The area of the media `m` over the version's median area. */
export const sizeRatio = (m: string, median: RawBuilder<number>) => sql<number>`(${sql.ref(`${m}.width`)}::float8 * ${sql.ref(`${m}.height`)} / nullif(${median}, 0))`;

/** Whether an area (pixels) is odd against the median area: below the floor, or far below or above the median. */
export const oddArea = (area: RawBuilder<number>, median: RawBuilder<number>) =>
  sql<boolean>`(${area} < ${sql.lit(T.tinyAreaBelow)} or ${area} < ${sql.lit(T.tinyShare)} * ${median} or ${area} > ${sql.lit(T.hugeMultiple)} * ${median})`;

/** The same test in JavaScript, for a median known to the caller (issue-summaries.ts); false where SQL's is null. */
export const isOddArea = (area: number, median: number | null): boolean =>
  area < T.tinyAreaBelow || (median !== null && (area < T.tinyShare * median || area > T.hugeMultiple * median));

/**
 * The ids of the version's media that share their bytes (content hash) or their decoded pixels (pixel hash) with
 * another of its media, computed from its media: a scan of the version's media and a sort by each hash (1M media in
 * about a second). Media analysed before migration 0041 have no pixel hash and share only their bytes.
 */
export function liveExactDuplicateIds(version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select x.id from (
      select m.id, m.pixel_hash, count(*) over (partition by m.blob_hash) as same_bytes, count(*) over (partition by m.pixel_hash) as same_pixels
      from ${versionMedia(version)}
    ) x where x.same_bytes > 1 or (x.pixel_hash is not null and x.same_pixels > 1)`;
}

/** The ids of the version's media of odd size, computed from its media. */
const liveOddSizeIds = (version: RawBuilder<unknown>) =>
  sql`select m.id from ${versionMedia(version)} and m.width is not null and ${oddArea(sql`m.width::float8 * m.height`, liveMedianArea(version))}`;

const LIVE: Record<VersionIssue, (version: RawBuilder<unknown>) => RawBuilder<unknown>> = { exact_duplicates: liveExactDuplicateIds, odd_size: liveOddSizeIds };

/** The ids of the version's media with a version issue: its stored rows, read by key. */
export function versionIssueIds(issue: VersionIssue, version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select media_id as id from version_issue_media where version_id = ${version} and issue = ${sql.lit(issue)}
    union all select l.id from (${LIVE[issue](version)}) l where not ${stored(version)}`;
}

/** Whether the media `media` (a column reference) of the version has a version issue: a probe of its stored rows. */
export function hasVersionIssue(issue: VersionIssue, media: RawBuilder<unknown>, version: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(case when ${stored(version)}
    then exists (select 1 from version_issue_media s where s.version_id = ${version} and s.issue = ${sql.lit(issue)} and s.media_id = ${media})
    else ${media} in (${LIVE[issue](version)}) end)`;
}

/** The version issues of the media `media` (a column reference), for the members a page shows: a probe of each. */
export function versionIssuesOf(media: RawBuilder<unknown>, version: RawBuilder<unknown>): RawBuilder<string[]> {
  const issues: VersionIssue[] = ['exact_duplicates', 'odd_size'];
  return sql<string[]>`array_remove(array[${sql.join(issues.map((i) => sql`case when ${hasVersionIssue(i, media, version)} then ${sql.lit(i)} end`))}]::text[], null)`;
}

/** Whether the media `m` of the version is an exact duplicate (for an export, which reads every row anyway). */
export function isExactDuplicate(m: string, version: RawBuilder<unknown>): RawBuilder<boolean> {
  return hasVersionIssue('exact_duplicates', sql.ref(`${m}.id`), version);
}

/** Files of the dataset that failed to decode: uploaded, never linked to media, with the reason recorded. */
export const failedFiles = (datasetId: string) =>
  sql`select f.id, f.file_name, f.error, f.created_at from upload_files f where f.dataset_id = ${datasetId}::uuid and f.error is not null and f.media_id is null`;
