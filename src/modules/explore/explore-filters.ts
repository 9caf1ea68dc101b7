import { type RawBuilder, sql } from 'kysely';
import type { ExploreFilters, FieldFilter, IssueType } from '../../core/vql.js';
import { type VersionIssue, hasFlag, oddAspectRatio, versionIssueIds } from './quality-issues.js';
import { flaggedIds } from '../label-errors/label-errors.repo.js';
import { mapFilterSql } from '../map/map-rows.js';

/** The SQL of Explore's filters over `version_media vm join media m` (part of the Explore repo; other repos select by it too). */

/** A quality issue as a condition on the media row `m` ('' unaliased), each answered by a partial index (0034, 0041). */
const ON_MEDIA: Partial<Record<IssueType, (m: string) => RawBuilder<boolean>>> = {
  blur: (m) => hasFlag(m, 'blurry'),
  dark: (m) => hasFlag(m, 'dark'),
  bright: (m) => hasFlag(m, 'bright'),
  grayscale: (m) => hasFlag(m, 'grayscale'),
  low_information: (m) => hasFlag(m, 'low_information'),
  odd_aspect_ratio: oddAspectRatio,
};

/** An issue relative to the version's media, stored with the version (quality-issues.ts versionIssueIds). */
const IN_VERSION: Partial<Record<IssueType, VersionIssue>> = { exact_duplicates: 'exact_duplicates', odd_size: 'odd_size' };

/** An issue a label-errors run found: the flagged media of the run that applies to the version (label-errors.repo.ts). */
const FROM_RUNS: Partial<Record<IssueType, (version: RawBuilder<unknown>) => RawBuilder<unknown>>> = {
  mislabels: flaggedIds('is_mislabel'),
  class_outliers: flaggedIds('is_class_outlier'),
};

const ON_ROW: Partial<Record<IssueType, RawBuilder<boolean>>> = {
  outliers: sql<boolean>`vm.is_outlier`,
  duplicates: sql<boolean>`vm.duplicate_group is not null`,
};

/**
 * The media of the version having an issue, as a query of `id`: a media issue read from its partial index, a version
 * issue from its stored rows, a label error from its run's flagged scores; undefined for an issue of the row (tested on `vm`).
 */
function idsOf(issue: IssueType, versionId: string): RawBuilder<unknown> | undefined {
  const onMedia = ON_MEDIA[issue];
  if (onMedia) return sql`select id from media where ${onMedia('')}`;
  const fromRuns = FROM_RUNS[issue];
  if (fromRuns) return fromRuns(sql`${versionId}::uuid`);
  const inVersion = IN_VERSION[issue];
  return inVersion && versionIssueIds(inVersion, sql`${versionId}::uuid`);
}

/** The columns of a version's wide rows that the filters and Explore's pages read. */
const ROW_COLUMNS = ['media_id', 'cluster_l0', 'cluster_l1', 'cluster_l2', 'cluster_l3', 'cluster_l4', 'uniqueness_score', 'nn_similarity', 'is_outlier', 'duplicate_group', 'caption', 'objects', 'text_search'];

/**
 * One version's wide rows, as version_media's own arm reads them: its own rows, and its base's it does not hold itself.
 * The own arm is skipped, by a check run once, when the version holds no rows itself (an edit or an import of
 * annotations): a filter's ids probed it one by one for nothing (200k ids at 1M media: 0.54 s).
 */
export function wideRows(versionId: string): RawBuilder<unknown> {
  const columns = (alias: string) => sql.raw(ROW_COLUMNS.map((c) => `${alias}.${c}`).join(', '));
  return sql`(
      select r.version_id, ${columns('r')} from version_rows r where r.version_id = ${versionId}::uuid
        and exists (select 1 from version_rows h where h.version_id = ${versionId}::uuid)
      union all
      select v.version_id, ${columns('b')} from version_bases v join version_rows b on b.version_id = v.base_id
      where v.version_id = ${versionId}::uuid
        and not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id)
    )`;
}

/**
 * What text search reads: the media's own text (its file name), and the caption and detected objects' labels,
 * captions and text stored with its version row (0032), as one tsvector.
 */
export const MEDIA_TEXT = sql`(m.search_text || coalesce(vm.text_search, ''::tsvector))`;

/**
 * The AND of every filter except those resolved to candidates beforehand (semantic text), on the rows `vm` of the
 * version `versionId`. A quality issue, tags, labels and fields find their media first, as an array computed once: its
 * ids are an index condition on each arm of the version's rows, which a semi-join could not reach through the base's arm
 * (PostgreSQL hashed it and read every row of the version); a version issue read per row would be computed per row.
 */
export function filtersSql(f: ExploreFilters, versionId: string): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (f.fileName) parts.push(sql`m.file_name ilike ${likePattern(f.fileName)}`);
  const fts = f.text.filter((t) => t.op === 'fts').map((t) => t.value);
  if (fts.length > 0) parts.push(ftsSql(fts));
  for (const { issue, mode } of f.issues) {
    // The absence of a media flag is tested on the media row: the media without it are most of the install.
    const ids = mode === 'in' || !ON_MEDIA[issue] ? idsOf(issue, versionId) : undefined;
    const has = ids ? sql<boolean>`vm.media_id = any(array(${ids}))` : (ON_MEDIA[issue]?.('m') ?? ON_ROW[issue]!);
    parts.push(mode === 'in' ? has : sql`not coalesce(${has}, false)`);
  }
  if (f.minDuplicateSimilarity !== null) parts.push(sql`vm.nn_similarity >= ${f.minDuplicateSimilarity}`);
  if (f.minUniqueness !== null) parts.push(sql`vm.uniqueness_score >= ${f.minUniqueness}`);
  if (f.maxUniqueness !== null) parts.push(sql`vm.uniqueness_score <= ${f.maxUniqueness}`);
  if (f.mediaTypes) {
    // Explore lists a video through its frames, so asking for videos means their frames.
    const types = [...new Set(f.mediaTypes.map((t) => (t === 'VIDEO' ? 'VIDEO_FRAME' : t)))];
    parts.push(sql`m.media_type = any(${types}::text[])`);
  }
  // A media's label, or the class of an object detected in it.
  for (const labels of f.labels) {
    parts.push(sql`vm.media_id = any(array(select va.media_id from version_annotations va where va.version_id = ${versionId}::uuid and va.label = any(${labels}::text[])
      union all select o.media_id from ${wideRows(versionId)} o where o.objects is not null and ${objectLabelSql(sql`o.objects`, labels)}))`);
  }
  // Tags and fields are matched in their own rows, held only for annotated media: PostgreSQL finds those first
  // instead of testing each row's joined annotations.
  for (const tags of f.tags) {
    parts.push(sql`vm.media_id = any(array(select va.media_id from version_annotations va where va.version_id = ${versionId}::uuid and va.tags && ${tags}::text[]))`);
  }
  for (const field of f.fields) parts.push(fieldRowSql(field, versionId));
  for (const polygon of f.mapPolygons) parts.push(mapFilterSql(polygon, versionId));
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** Whether filtersSql, given the version, reads the media `m` (file name, text, type, a quality flag's absence). */
export function readsMedia(f: ExploreFilters): boolean {
  const flagAbsent = f.issues.some(({ issue, mode }) => ON_MEDIA[issue] !== undefined && mode !== 'in');
  return f.fileName !== null || f.mediaTypes !== null || f.text.some((t) => t.op === 'fts') || flagAbsent;
}

/** A media without field rows has no fields: only `exists: false` matches it, as the negation of `exists: true`. */
function fieldRowSql(f: FieldFilter, versionId: string): RawBuilder<boolean> {
  const negated = f.op === 'exists' && !f.value;
  if (!negated) {
    // An equal value is one the field's GIN index (0034) finds: the field holding it, or an array holding it.
    const indexed = f.op === 'eq' ? sql`(vf.custom_fields @> ${JSON.stringify({ [f.field]: f.value })}::jsonb or vf.custom_fields @> ${JSON.stringify({ [f.field]: [f.value] })}::jsonb) and ` : sql``;
    return sql<boolean>`vm.media_id = any(array(select vf.media_id from version_fields vf where vf.version_id = ${versionId}::uuid and ${indexed}${fieldSql(f, sql`vf.custom_fields`)}))`;
  }
  const held = sql`exists (select 1 from version_fields vf where vf.version_id = ${versionId}::uuid and vf.media_id = vm.media_id
    and ${fieldSql(negated ? { ...f, value: true } : f, sql`vf.custom_fields`)})`;
  return negated ? sql<boolean>`not ${held}` : sql<boolean>`${held}`;
}

/** One custom field condition on `fields`; a media without the field matches only `exists: false`. Values of another type never match. */
function fieldSql(f: FieldFilter, fields: RawBuilder<unknown>): RawBuilder<boolean> {
  const x = sql`(${fields} -> ${f.field})`;
  const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
  // Datetimes are stored as UTC ISO text, so byte order ("C") is time order.
  const compare = (op: '>' | '>=' | '<' | '<=', v: number | string) =>
    typeof v === 'number'
      ? sql`(jsonb_typeof(${x}) = 'number' and ${x} ${sql.raw(op)} ${json(v)})`
      : sql`(jsonb_typeof(${x}) = 'string' and (${x} #>> '{}') collate "C" ${sql.raw(op)} ${v})`;
  const equal = (v: unknown) => sql`(${x} = ${json(v)} or (jsonb_typeof(${x}) = 'array' and ${x} @> jsonb_build_array(${json(v)})))`;
  switch (f.op) {
    case 'eq':
      return sql<boolean>`coalesce(${equal(f.value)}, false)`;
    case 'ne':
      return sql<boolean>`(${x} is not null and not coalesce(${equal(f.value)}, false))`;
    case 'gt':
      return sql<boolean>`${compare('>', f.value)}`;
    case 'gte':
      return sql<boolean>`${compare('>=', f.value)}`;
    case 'lt':
      return sql<boolean>`${compare('<', f.value)}`;
    case 'lte':
      return sql<boolean>`${compare('<=', f.value)}`;
    case 'between':
      return sql<boolean>`(${compare('>=', f.value[0])} and ${compare('<=', f.value[1])})`;
    case 'contains':
      return sql<boolean>`((jsonb_typeof(${x}) = 'array' and jsonb_exists(${x}, ${f.value}))
        or (jsonb_typeof(${x}) = 'string' and (${x} #>> '{}') ilike ${likePattern(f.value)}))`;
    case 'exists':
      return f.value ? sql<boolean>`jsonb_exists(${fields}, ${f.field})` : sql<boolean>`not jsonb_exists(${fields}, ${f.field})`;
  }
}

/**
 * A positive query matches only a row holding one of its words, in its file name or in its version row's text, and
 * both have a GIN index: that pre-filter lets PostgreSQL read the index instead of testing every row of the version.
 * A query with a negated word (`-word`) can match a row holding none of its words, so it is tested on every row.
 */
function ftsSql(values: string[]): RawBuilder<boolean> {
  const exact = sql<boolean>`${MEDIA_TEXT} @@ ${tsQuery(values)}`;
  const words = values.flatMap((v) => v.split(/[\s"]+/)).filter((w) => w !== '' && w.toLowerCase() !== 'or');
  if (words.some((w) => w.startsWith('-'))) return exact;
  const any = sql`websearch_to_tsquery('english', ${words.join(' or ')})`;
  return sql<boolean>`((vm.text_search @@ ${any} or vm.media_id = any(array(select id from media where search_text @@ ${any}))) and ${exact})`;
}

/** Whether one of the detected objects `objects` has one of the labels. */
function objectLabelSql(objects: RawBuilder<unknown>, labels: string[]): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from jsonb_array_elements(${objects}) o where o ->> 'label' = any(${labels}::text[]))`;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every fts value must match (AND), each parsed like a web search box: quotes, OR, -word. */
export function tsQuery(values: string[]): RawBuilder<unknown> {
  return sql`(${sql.join(
    values.map((v) => sql`websearch_to_tsquery('english', ${v})`),
    sql` && `,
  )})`;
}
