import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../../adapters/db/database.js';
import { csvToParquet } from '../../adapters/parquet/duckdb-parquet.js';
import type { FieldType } from '../../core/custom-fields.js';
import { METADATA_ENTRY } from '../../core/exports.js';
import { type MediaSelection, clashFreeName, safeName, selectedIds } from './export-items.js';
import { exportColumns, fieldColumn } from './metadata/columns.js';

/** What a custom field's JSON value becomes in its column: text as is, a list as its JSON text. */
const FIELD_VALUE: Record<FieldType, (field: RawBuilder<unknown>) => RawBuilder<unknown>> = {
  string: (f) => sql`custom_fields ->> ${f}`,
  number: (f) => sql`custom_fields ->> ${f}`,
  boolean: (f) => sql`custom_fields ->> ${f}`,
  datetime: (f) => sql`custom_fields ->> ${f}`,
  string_list: (f) => sql`nullif(custom_fields -> ${f}, 'null'::jsonb)::text`,
};

/**
 * The metadata columns (metadataRow's, in exportColumns' order) computed by PostgreSQL from the export's rows
 * (itemsQuery's, image_filename the same, in no particular order), lists and `objects` as JSON text, for a
 * COPY: so a million rows never become JavaScript objects. `objects` is spelled as JSON.stringify spells it
 * (compact, keys in metadataRow's order, numbers as stored). `part` keeps the media whose safe name,
 * lower-cased, hashes to `index` modulo `of`.
 */
export function columnsQuery(
  db: Db,
  request: { versionId: string; selection: MediaSelection | null; includeImages: boolean; fieldTypes: Record<string, FieldType> },
  part: { index: number; of: number } = { index: 0, of: 1 },
): string {
  const { versionId, selection, includeImages, fieldTypes } = request;
  const imageFilename = sql`case when c.k is null then safe_name else ${clashFreeName(sql.ref('safe_name'), sql.ref('id'))} end`;
  const inArchive = includeImages ? sql`'images/' || ${imageFilename}` : sql`null::text`;
  const fixed: Record<string, RawBuilder<unknown>> = {
    media_id: sql`id`,
    media_type: sql`media_type`,
    image_filename: imageFilename,
    file_name: sql`file_name`,
    file_path: inArchive,
    media_uri: inArchive,
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
    quality_flags: sql`to_json(coalesce(quality_flags, '{}'))`,
    blur_score: sql`blur`,
    brightness: sql`brightness`,
    captured_at: sql`captured_at`,
    video_id: sql`parent_media_id`,
    frame_timestamp: sql`frame_timestamp`,
    tags: sql`to_json(coalesce(tags, '{}'))`,
    label: sql`label`,
    caption: sql`caption`,
    n_objects: sql`coalesce(jsonb_array_length(objects), 0)`,
    // The guards skip the subqueries for the many media no detector ran on.
    object_labels: sql`case when objects is null then '[]' else to_json(array(select l from (select distinct o ->> 'label' collate "C" as l
      from jsonb_array_elements(objects) o) s order by l))::text end`,
    objects: sql`case when objects is null then '[]' else coalesce((select '[' || string_agg(concat('{"object_id":', to_json(o ->> 'object_id'),
        ',"label":', to_json(o ->> 'label'), ',"score":', o -> 'score', ',"bbox":[', o #> '{box,x}', ',', o #> '{box,y}', ',', o #> '{box,width}',
        ',', o #> '{box,height}', '],"caption":', coalesce(to_json(o ->> 'caption')::text, 'null'), '}'), ',' order by n) || ']'
      from jsonb_array_elements(objects) with ordinality e(o, n)), '[]') end`,
    ocr_text: sql`ocr_text`,
  };
  for (const [field, type] of Object.entries(fieldTypes)) fixed[fieldColumn(field)] = FIELD_VALUE[type](sql.lit(field));
  const select = Object.keys(exportColumns(fieldTypes)).map((column) => sql`${fixed[column]!} as ${sql.ref(column)}`);
  const version = sql.lit(versionId);
  // A part holds every media of the names it holds, so the names it shares are found among its own media.
  const inPart = sql`(hashtext(lower(${safeName(sql.ref('m.file_name'))})) & 2147483647) % ${sql.lit(part.of)} = ${sql.lit(part.index)}`;
  // The names shared case-insensitively, found by hashing: the rows themselves are never sorted (itemsQuery's window sorts them).
  const query = sql`with picked as not materialized (${selectedIds(versionId, selection, true)}),
    clashes as (
      select lower(${safeName(sql.ref('m.file_name'))}) as k from picked p join media m on m.id = p.media_id where ${inPart}
      group by 1 having count(*) > 1),
    named as (
      select m.id, m.media_type, m.file_name, m.size, m.width, m.height, m.quality_flags, m.blur, m.brightness,
        m.exif ->> 'captured_at' as captured_at, m.parent_media_id, m.frame_timestamp,
        vm.uniqueness_score, vm.cluster_l0, vm.cluster_l1, vm.cluster_l2, vm.cluster_l3, vm.cluster_l4, vm.duplicate_group, vm.is_outlier,
        vm.tags, vm.label, vm.custom_fields, vm.caption, vm.objects, vm.enrichment -> 'ocr' ->> 'text' as ocr_text,
        ${safeName(sql.ref('m.file_name'))} as safe_name
      from picked p join media m on m.id = p.media_id
      join version_media vm on vm.version_id = ${version}::uuid and vm.media_id = m.id
      where ${inPart})
    select ${sql.join(select)} from named left join clashes c on c.k = lower(named.safe_name)`;
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0) throw new Error('a COPY query must carry its values inline');
  return compiled.sql;
}

/**
 * Writes the rows of `query` as CSV (PostgreSQL's: NULL unquoted and empty, "" an empty string) into `file`,
 * through one client of its own; returns how many rows it wrote. The bytes are never parsed here.
 */
export async function copyToCsv(pool: pg.Pool, query: string, file: string, signal: AbortSignal): Promise<number> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query(`set work_mem = '64MB'`);
    const copy = client.query(copyTo(`copy (${query}) to stdout (format csv)`));
    await pipeline(copy, createWriteStream(file, { highWaterMark: 1 << 20 }), { signal });
    await client.query(`reset work_mem`);
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
 * COPYs run at once, each over its share of the names (columnsQuery's `part`): a COPY's projection and text
 * output run in one backend whatever the plan, so one COPY keeps one core busy.
 */
const COPY_PARTS = 2;

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
  const copied = await Promise.all(parts.map((part) => copyToCsv(deps.pool, columnsQuery(deps.db, request, part), part.csv, signal)));
  signal.throwIfAborted();
  await csvToParquet(
    parts.map((part) => part.csv),
    file,
    dir,
    exportColumns(request.fieldTypes),
  );
  await Promise.all(parts.map((part) => rm(part.csv, { force: true })));
  return { file, rows: copied.reduce((sum, n) => sum + n, 0) };
}
