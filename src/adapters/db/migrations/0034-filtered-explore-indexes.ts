import { type Kysely, sql } from 'kysely';

/** The quality flags an issue filter asks for (blur, dark, bright). */
const FLAGS = ['blurry', 'dark', 'bright'];

/**
 * A filtered Explore page starts from the rows its filter selects (explore-filters.ts): outliers and a uniqueness
 * range and the rows holding detected objects (a label filter) by these indexes on the version rows, a quality issue by the media holding its flag. Each flag's index is
 * partial and holds only the media's id, so the ids are read from the index alone. Outliers are found by a partial
 * index now that a page probes each media by key (0032 tried one while the page merge-joined every media row).
 * A custom field equal to a value is found by a GIN index on the field rows (100k media: 3 ms instead of a 35 ms scan
 * of every field row of the version). A version's own set of fields (field_sets, 0025) has none: an import would
 * build it for every row it writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index version_rows_outlier_idx on version_rows (version_id, media_id) where is_outlier;
    create index version_rows_uniqueness_idx on version_rows (version_id, uniqueness_score);
    create index version_rows_objects_idx on version_rows (version_id, media_id) where objects is not null;
    create index field_rows_values_idx on field_rows using gin (custom_fields jsonb_path_ops);
  `.execute(db);
  for (const flag of FLAGS) await sql`create index ${sql.raw(`media_${flag}_idx`)} on media (id) where ${sql.lit(flag)} = any(quality_flags)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const flag of FLAGS) await sql`drop index ${sql.raw(`media_${flag}_idx`)}`.execute(db);
  await sql`drop index field_rows_values_idx; drop index version_rows_objects_idx; drop index version_rows_uniqueness_idx; drop index version_rows_outlier_idx`.execute(db);
}
