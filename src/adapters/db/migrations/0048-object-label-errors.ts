import { type Kysely, sql } from 'kysely';

/**
 * Issue 29's label errors on detected objects (docs/curation.md): the crop embeddings an enrichment computed, kept
 * as one byte per dimension (centred on the model's prior mean, quantizeRows), keyed by the object id that every
 * version carrying the object shares; a run says whether it scored media, objects or both; one score row per object.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table object_embeddings (
      object_id uuid primary key,
      -- The media the object was found in: the row goes when the media does.
      media_id uuid not null references media (id) on delete cascade,
      model text not null,
      -- The enrichment task that detected the object.
      task_id uuid,
      vector bytea not null
    );
    create index object_embeddings_media on object_embeddings (media_id);
    alter table label_error_runs add column scores_media boolean not null default true, add column scores_objects boolean not null default false;
    create table object_label_error_scores (
      run_id uuid not null references label_error_runs (id) on delete cascade,
      object_id uuid not null,
      media_id uuid not null,
      label text not null,
      mislabel_score real,
      suggested_label text,
      class_outlier_score real,
      is_mislabel boolean not null,
      is_class_outlier boolean not null,
      primary key (run_id, object_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table object_label_error_scores; drop table object_embeddings;
    alter table label_error_runs drop column scores_media, drop column scores_objects`.execute(db);
}
