import { type Kysely, sql } from 'kysely';

/** The quality issues issue 29 adds, found by the media holding their flag (partial indexes like 0034's). */
const FLAGS = ['grayscale', 'low_information'];

/**
 * Issue 29's per-image measures (docs/curation.md): the pixel hash that finds exact duplicates beyond identical bytes,
 * the colour spread behind `grayscale` and the gray entropy behind `low_information`; media analysed before stay null.
 * An odd aspect ratio is read from width and height, so media of any age have it: its partial index holds the media
 * past ISSUE_THRESHOLDS.oddAspectRatioAbove (2.5; a new threshold needs a new index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table media add column pixel_hash text, add column color_spread real, add column entropy real;
    create index media_pixel_hash_idx on media (pixel_hash) where pixel_hash is not null;
    create index media_odd_aspect_ratio_idx on media (id) where greatest(width, height) > 2.5 * least(width, height);
    create index upload_files_failed_idx on upload_files (dataset_id) where error is not null and media_id is null;
  `.execute(db);
  for (const flag of FLAGS) await sql`create index ${sql.raw(`media_${flag}_idx`)} on media (id) where ${sql.lit(flag)} = any(quality_flags)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const flag of FLAGS) await sql`drop index ${sql.raw(`media_${flag}_idx`)}`.execute(db);
  await sql`
    drop index upload_files_failed_idx; drop index media_odd_aspect_ratio_idx; drop index media_pixel_hash_idx;
    alter table media drop column entropy, drop column color_spread, drop column pixel_hash;
  `.execute(db);
}
