import { type RawBuilder, sql } from 'kysely';
import { ISSUE_THRESHOLDS } from '../../adapters/media/image-quality.js';

/**
 * The SQL of issue 29's quality issues (docs/curation.md), shared by Explore's filters, the exports and the dataset's
 * issue counts. Per-image issues are a condition on the media row; exact duplicates and odd sizes are relative to a
 * version's media, found as a set of ids from the version's membership.
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

/** The median area (pixels) of the version's images and frames: one scalar subquery, run once per statement. */
export const medianArea = (version: RawBuilder<unknown>) =>
  sql<number>`(select percentile_cont(0.5) within group (order by m.width::float8 * m.height) from ${versionMedia(version)} and m.width is not null)`;

/** The area of the media `m` over the version's median area. */
export const sizeRatio = (m: string, median: RawBuilder<number>) => sql<number>`(${sql.ref(`${m}.width`)}::float8 * ${sql.ref(`${m}.height`)} / nullif(${median}, 0))`;

/** Whether an area (pixels) is odd against the median area: below the floor, or far below or above the median. */
export const oddArea = (area: RawBuilder<number>, median: RawBuilder<number>) =>
  sql<boolean>`(${area} < ${sql.lit(T.tinyAreaBelow)} or ${area} < ${sql.lit(T.tinyShare)} * ${median} or ${area} > ${sql.lit(T.hugeMultiple)} * ${median})`;

/** The ids of the version's media of odd size. */
export function oddSizeIds(version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select m.id from ${versionMedia(version)} and m.width is not null and ${oddArea(sql`m.width::float8 * m.height`, medianArea(version))}`;
}

/**
 * The ids of the version's media that share their bytes (content hash) or their decoded pixels (pixel hash) with
 * another of its media. A scan of the version's media and a sort by each hash: 1M media in about a second.
 */
export function exactDuplicateIds(version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select x.id from (
      select m.id, m.pixel_hash, count(*) over (partition by m.blob_hash) as same_bytes, count(*) over (partition by m.pixel_hash) as same_pixels
      from ${versionMedia(version)}
    ) x where x.same_bytes > 1 or (x.pixel_hash is not null and x.same_pixels > 1)`;
}

/**
 * Whether the media `m` of the version is an exact duplicate, probed row by row through the hash indexes (for an
 * export, which reads every row anyway and may keep a few).
 */
export function isExactDuplicate(m: string, version: RawBuilder<unknown>): RawBuilder<boolean> {
  const id = sql.ref(`${m}.id`);
  const same = (column: string) => sql`exists (select 1 from media d join version_members dv on dv.media_id = d.id and dv.version_id = ${version}
    where d.${sql.ref(column)} = ${sql.ref(`${m}.${column}`)} and d.id <> ${id} and d.media_type in ('IMAGE', 'VIDEO_FRAME'))`;
  return sql<boolean>`(${same('blob_hash')} or (${sql.ref(`${m}.pixel_hash`)} is not null and ${same('pixel_hash')}))`;
}

/** Files of the dataset that failed to decode: uploaded, never linked to media, with the reason recorded. */
export const failedFiles = (datasetId: string) =>
  sql`select f.id, f.file_name, f.error, f.created_at from upload_files f where f.dataset_id = ${datasetId}::uuid and f.error is not null and f.media_id is null`;
