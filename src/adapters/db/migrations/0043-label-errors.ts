import { type Kysely, sql } from 'kysely';

/**
 * Issue 29's label errors (docs/curation.md): a LABEL_ERRORS task's run, on the head version it wrote, and one row
 * per labelled media it scored. The label scored is kept, so a later edit of that media's label takes it out of
 * the issues (the scores are of a label it no longer has). A run belongs to its dataset's version lineage: it applies
 * to the version it wrote and to the versions made after it, until the next run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table label_error_runs (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      -- Null until the task commits: its scores are written beforehand and invisible until then.
      version_id uuid,
      task_id uuid,
      k int not null,
      threshold real not null,
      created_at timestamptz not null default now()
    );
    create index label_error_runs_dataset_idx on label_error_runs (dataset_id, created_at desc);
    create table label_error_scores (
      run_id uuid not null references label_error_runs (id) on delete cascade,
      media_id uuid not null,
      label text not null,
      mislabel_score real,
      suggested_label text,
      class_outlier_score real,
      is_mislabel boolean not null,
      is_class_outlier boolean not null,
      primary key (run_id, media_id)
    );
    create index label_error_scores_mislabel_idx on label_error_scores (run_id, media_id) where is_mislabel;
    create index label_error_scores_outlier_idx on label_error_scores (run_id, media_id) where is_class_outlier;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table label_error_scores; drop table label_error_runs`.execute(db);
}
