import { type Kysely, sql } from 'kysely';

/**
 * The uniqueness index (0034) holds only rows with a score: a range filter implies one, so the filter still finds its
 * rows by it, and a lookup of one media in a version by (version_id, media_id) can no longer pick it. A version's
 * rows written in the same task have no statistics yet, so the planner counted one row for its version_id; both
 * indexes then cost the same and it took the smaller, reading every row of the version for each media with the
 * media_id as a filter. A media addition's summary update at 200k media spent 16.5 s there instead of 0.1 s.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index version_rows_uniqueness_idx;
    create index version_rows_uniqueness_idx on version_rows (version_id, uniqueness_score) where uniqueness_score is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index version_rows_uniqueness_idx;
    create index version_rows_uniqueness_idx on version_rows (version_id, uniqueness_score);
  `.execute(db);
}
