import { type Kysely, sql } from 'kysely';

/**
 * The flagged objects of a run by index, as the media's have (0043): Explore's objects view filtered by mislabels or
 * class_outliers, and the issues route's object counts, start from them instead of every object of the version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index object_label_error_scores_mislabel_idx on object_label_error_scores (run_id, object_id) where is_mislabel;
    create index object_label_error_scores_outlier_idx on object_label_error_scores (run_id, object_id) where is_class_outlier;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index object_label_error_scores_mislabel_idx; drop index object_label_error_scores_outlier_idx`.execute(db);
}
