import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../../adapters/db/database.js';
import { type ParquetColumnType, csvToParquet } from '../../adapters/parquet/duckdb-parquet.js';
import type { FieldType } from '../../core/custom-fields.js';
import { METADATA_ENTRY } from '../../core/exports.js';
import { type MediaSelection, safeName, selectedIds } from './export-items.js';
import { exportColumns, fieldColumn } from './metadata/columns.js';
import { versionRowsOf } from '../versions/cluster-summaries.js';
import { aspectRatio, isExactDuplicate, medianArea, oddArea, oddAspectRatio, sizeRatio } from '../explore/quality-issues.js';
import { CUSTOM_FIELDS, TAGS_AND_LABELS, layerRows } from '../versions/version-annotations.js';
import { currentScores, scoredObjects } from '../label-errors/label-errors.repo.js';

/** What a custom field's JSON value becomes in its column: text as is, a list as its JSON text. */
const FIELD_VALUE: Record<FieldType, (field: RawBuilder<unknown>) => RawBuilder<unknown>> = {
  string: (f) => sql`custom_fields ->> ${f}`,
  number: (f) => sql`custom_fields ->> ${f}`,
  boolean: (f) => sql`custom_fields ->> ${f}`,
  datetime: (f) => sql`custom_fields ->> ${f}`,
  string_list: (f) => sql`nullif(custom_fields -> ${f}, 'null'::jsonb)::text`,
};

/** A text[] as JSON text; most are empty, and to_json of each cost 0.47 s per million. */
const jsonList = (list: RawBuilder<unknown>) => sql`case when cardinality(${list}) > 0 then to_json(${list})::text else '[]' end`;

/** The columns DuckDB derives (parquetMetadata), in place of those PostgreSQL writes: the archive names. */
const DERIVED = ['image_filename', 'file_path', 'media_uri'];

/** What PostgreSQL writes instead: each media's safe name, and the key its clashes are found by. */
const NAME_COLUMNS: Record<string, ParquetColumnType> = { safe_name: 'VARCHAR', name_key: 'VARCHAR' };

/** The CSV's columns in order: the export's, less those DuckDB derives, then the name columns. */
function csvColumns(fieldTypes: Record<string, FieldType>): Record<string, ParquetColumnType> {
  const columns = Object.entries(exportColumns(fieldTypes)).filter(([name]) => !DERIVED.includes(name));
  return { ...Object.fromEntries(columns), ...NAME_COLUMNS };
}

/**
 * The metadata columns (csvColumns') computed by PostgreSQL from the version's rows, lists and `objects` as JSON
 * text, for a COPY: so a million rows never become JavaScript objects. `objects` is spelled as JSON.stringify
 * spells it (compact, keys in metadataRow's order, numbers as stored). `part` keeps the media whose id falls in
 * its share of the id space. The version's rows, annotations and fields are read from their tables with each
 * arm's version named, not through version_media, which joins them for any version: there the planner guessed
 * 5,000 rows for a million and sorted and hashed through temporary files (1M media with fields: 49 s an export).
 */
export async function columnsQuery(
  db: Db,
  request: { versionId: string; selection: MediaSelection | null; fieldTypes: Record<string, FieldType> },
  part: { index: number; of: number } = { index: 0, of: 1 },
): Promise<string> {
  const { versionId, selection, fieldTypes } = request;
  const fixed: Record<string, RawBuilder<unknown>> = {
    media_id: sql`id`,
    media_type: sql`media_type`,
    file_name: sql`file_name`,
    file_size: sql`size`,
    width: sql`width`,
    height: sql`height`,
    uniqueness_score: sql`uniqueness_score`,
    cluster_id: sql`cluster_l0`,
    cluster_id_l1: sql`cluster_l1`,
    cluster_id_l2: sql`cluster_l2`,
    cluster_id_l3: sql`cluster_l3`,
    cluster_id_l4: sql`cluster_l4`,
    duplicate_group_id: sql`duplicate_group`,
    is_outlier: sql`is_outlier`,
    is_blurry: sql`coalesce('blurry' = any(quality_flags), false)`,
    is_dark: sql`coalesce('dark' = any(quality_flags), false)`,
    is_bright: sql`coalesce('bright' = any(quality_flags), false)`,
    quality_flags: jsonList(sql.ref('quality_flags')),
    blur_score: sql`blur`,
    brightness: sql`brightness`,
    color_spread: sql`color_spread`,
    entropy: sql`entropy`,
    aspect_ratio: sql`aspect_ratio`,
    size_ratio: sql`size_ratio`,
    pixel_hash: sql`pixel_hash`,
    is_grayscale: sql`coalesce('grayscale' = any(quality_flags), false)`,
    is_low_information: sql`coalesce('low_information' = any(quality_flags), false)`,
    is_odd_aspect_ratio: sql`is_odd_aspect_ratio`,
    is_odd_size: sql`is_odd_size`,
    is_exact_duplicate: sql`is_exact_duplicate`,
    mislabel_score: sql`mislabel_score`,
    suggested_label: sql`suggested_label`,
    class_outlier_score: sql`class_outlier_score`,
    is_mislabel: sql`coalesce(is_mislabel, false)`,
    is_class_outlier: sql`coalesce(is_class_outlier, false)`,
    captured_at: sql`captured_at`,
    video_id: sql`parent_media_id`,
    frame_timestamp: sql`frame_timestamp`,
    tags: jsonList(sql.ref('tags')),
    label: sql`label`,
    caption: sql`caption`,
    n_objects: sql`coalesce(jsonb_array_length(objects), 0)`,
    // The guards skip the subqueries for the many media no detector ran on.
    object_labels: sql`case when objects is null then '[]' else to_json(array(select l from (select distinct o ->> 'label' collate "C" as l
      from jsonb_array_elements(objects) o) s order by l))::text end`,
    objects: sql`case when objects is null then '[]' else coalesce((select '[' || string_agg(concat('{"object_id":', to_json(o ->> 'object_id'),
        ',"label":', to_json(o ->> 'label'), ',"score":', o -> 'score', ',"bbox":[', o #> '{box,x}', ',', o #> '{box,y}', ',', o #> '{box,width}',
        ',', o #> '{box,height}', '],"caption":', coalesce(to_json(o ->> 'caption')::text, 'null'),
        case when o ? 'is_mislabel' then concat(',"mislabel_score":', coalesce(o ->> 'mislabel_score', 'null'), ',"suggested_label":', coalesce(to_json(o ->> 'suggested_label')::text, 'null'),
          ',"class_outlier_score":', coalesce(o ->> 'class_outlier_score', 'null'), ',"is_mislabel":', o ->> 'is_mislabel', ',"is_class_outlier":', o ->> 'is_class_outlier') end, '}'), ',' order by n) || ']'
      from jsonb_array_elements(objects) with ordinality e(o, n)), '[]') end`,
    ocr_text: sql`ocr_text`,
    safe_name: sql`safe_name`,
    name_key: sql`lower(safe_name)`,
  };
  for (const [field, type] of Object.entries(fieldTypes)) fixed[fieldColumn(field)] = FIELD_VALUE[type](sql.lit(field));
  const select = Object.keys(csvColumns(fieldTypes)).map((column) => sql`${fixed[column]!} as ${sql.ref(column)}`);
  const inPart = (id: RawBuilder<unknown>) => idShare(id, part);
  const annotations = sql`(select * from ${await layerRows(db, TAGS_AND_LABELS, versionId, true)} x where ${inPart(sql.ref('x.media_id'))})`;
  const fields =
    Object.keys(fieldTypes).length > 0
      ? sql`(select * from ${await layerRows(db, CUSTOM_FIELDS, versionId, true)} x where ${inPart(sql.ref('x.media_id'))})`
      : sql`(select null::uuid as media_id, null::jsonb as custom_fields where false)`;
  const picked = selection === null ? sql`true` : sql`w.media_id in (${selectedIds(versionId, selection, true)})`;
  const version = sql`${sql.lit(versionId)}::uuid`;
  const query = sql`select ${sql.join(select)} from (
      select m.id, m.media_type, m.file_name, m.size, m.width, m.height, m.quality_flags, m.blur, m.brightness,
        m.color_spread, m.entropy, m.pixel_hash, ${aspectRatio('m')} as aspect_ratio, coalesce(${oddAspectRatio('m')}, false) as is_odd_aspect_ratio,
        ${sizeRatio('m', sql`md.area`)} as size_ratio, coalesce(${oddArea(sql`m.width::float8 * m.height`, sql`md.area`)}, false) as is_odd_size,
        ${isExactDuplicate('m', version)} as is_exact_duplicate,
        m.exif ->> 'captured_at' as captured_at, m.parent_media_id, m.frame_timestamp,
        w.uniqueness_score, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4, w.duplicate_group, w.is_outlier,
        w.caption, ${scoredObjects(sql`w.objects`, version)} as objects, w.enrichment -> 'ocr' ->> 'text' as ocr_text, ${safeName(sql.ref('m.file_name'))} as safe_name,
        coalesce(a.tags, '{}') as tags, a.label, coalesce(f.custom_fields, '{}') as custom_fields,
        le.mislabel_score, le.suggested_label, le.class_outlier_score, le.is_mislabel, le.is_class_outlier
      from ${await versionRowsOf(db, versionId, true)} w join media m on m.id = w.media_id
      cross join (select ${medianArea(version)} as area) md
      left join ${annotations} a on a.media_id = w.media_id
      left join ${fields} f on f.media_id = w.media_id
      left join (select * from ${currentScores(version)} x where ${inPart(sql.ref('x.media_id'))}) le on le.media_id = w.media_id
      where ${picked} and ${inPart(sql.ref('w.media_id'))} and ${inPart(sql.ref('m.id'))}) named`;
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0) throw new Error('a COPY query must carry its values inline');
  return compiled.sql;
}

/**
 * Writes the rows of `query` as CSV (PostgreSQL's: NULL unquoted and empty, "" an empty string) into `file`,
 * through one client of its own; returns how many rows it wrote. The bytes are never parsed here. The COPYs of
 * an export already keep every core busy, so a COPY plans without parallel workers (whose queues copy every wide
 * row once more), and joins by hashing the narrow side: a merge join sorted the half a million wide rows of each
 * part through 115 MB of temporary files.
 */
export async function copyToCsv(pool: pg.Pool, query: string, file: string, signal: AbortSignal): Promise<number> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query(`begin read only; set local work_mem = '64MB'; set local max_parallel_workers_per_gather = 0; set local enable_mergejoin = off`);
    const copy = client.query(copyTo(`copy (${query}) to stdout (format csv)`));
    await pipeline(copy, createWriteStream(file, { highWaterMark: 1 << 20 }), { signal });
    await client.query('commit');
    return copy.rowCount ?? 0;
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A COPY cut short leaves the connection mid-protocol: it is dropped, not reused.
    client.release(failed);
  }
}

/**
 * COPYs run at once, each over its share of the media (columnsQuery's `part`): a COPY's projection and text
 * output run in one backend whatever the plan, so one COPY keeps one core busy.
 */
const COPY_PARTS = 2;

/** `id` in the part's share of the uuid space: equal ranges of its first 32 bits (uuids compare as their bytes). */
function idShare(id: RawBuilder<unknown>, part: { index: number; of: number }): RawBuilder<boolean> {
  const bound = (index: number) => sql.lit(`${Math.floor((index * 2 ** 32) / part.of).toString(16).padStart(8, '0')}-0000-0000-0000-000000000000`);
  const parts = [sql`true`];
  if (part.index > 0) parts.push(sql`${id} >= ${bound(part.index)}::uuid`);
  if (part.index < part.of - 1) parts.push(sql`${id} < ${bound(part.index + 1)}::uuid`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/**
 * The archive names DuckDB derives from the CSV's safe_name and name_key (as itemsQuery names them): a name shared
 * case-insensitively gets the media id before its extension. PostgreSQL only lower-cases (so both sides agree on
 * which names clash); finding the clashes there took a second pass over the media and a join per part (3–4 s of
 * CPU at 1M), where DuckDB groups the keys in parallel.
 */
function archiveNames(includeImages: boolean) {
  const clashFree = `regexp_replace(s.safe_name, '(\\.[^.]*)?$', '') || '_' || s.media_id || regexp_extract(s.safe_name, '\\.[^.]*$')`;
  const imageFilename = `case when c.name_key is null then s.safe_name else ${clashFree} end`;
  const inArchive = includeImages ? `'images/' || (${imageFilename})` : 'null';
  return {
    derived: { image_filename: imageFilename, file_path: inArchive, media_uri: inArchive },
    joins: (source: string) => `left join (select name_key from ${source} group by name_key having count(*) > 1) c on c.name_key = s.name_key`,
  };
}

/**
 * The export's metadata.parquet in `dir`: PostgreSQL writes the columns as CSV, DuckDB reads them into
 * Parquet. Neither side makes a JavaScript value per row or per cell, so time and memory stay those of
 * the two native engines.
 */
export async function parquetMetadata(
  deps: { db: Db; pool: pg.Pool },
  request: { versionId: string; selection: MediaSelection | null; includeImages: boolean; fieldTypes: Record<string, FieldType> },
  dir: string,
  signal: AbortSignal,
): Promise<{ file: string; rows: number }> {
  const file = path.join(dir, METADATA_ENTRY.parquet);
  const parts = Array.from({ length: COPY_PARTS }, (_, index) => ({ index, of: COPY_PARTS, csv: path.join(dir, `metadata-${index}.csv`) }));
  const copied = await Promise.all(parts.map(async (part) => copyToCsv(deps.pool, await columnsQuery(deps.db, request, part), part.csv, signal)));
  signal.throwIfAborted();
  await csvToParquet(
    parts.map((part) => part.csv),
    file,
    dir,
    { csv: csvColumns(request.fieldTypes), parquet: exportColumns(request.fieldTypes), ...archiveNames(request.includeImages) },
  );
  await Promise.all(parts.map((part) => rm(part.csv, { force: true })));
  return { file, rows: copied.reduce((sum, n) => sum + n, 0) };
}
