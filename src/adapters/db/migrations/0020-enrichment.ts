import { type Kysely, sql } from 'kysely';

/**
 * Enrichment results live on version rows, so an enriched copy, its snapshots and clones carry them like
 * every other per-media state: `objects` (what a detector found, with object clusters) and `enrichment`
 * (the caption's evidence, OCR text, faces). A task's results are staged per media while it runs, so a
 * rerun resumes and nothing reaches a version before the commit. The context is the dataset's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table version_rows add column objects jsonb, add column enrichment jsonb;

    create or replace view version_media as
      select r.version_id, r.media_id, r.ordinal, r.cluster_l0, r.cluster_l1, r.cluster_l2, r.cluster_l3, r.cluster_l4,
        r.uniqueness_score, r.nn_similarity, r.is_outlier, r.duplicate_group,
        r.caption, r.tags, r.label, r.custom_fields, r.objects, r.enrichment
      from version_rows r
      union all
      select v.version_id, b.media_id, b.ordinal, b.cluster_l0, b.cluster_l1, b.cluster_l2, b.cluster_l3, b.cluster_l4,
        b.uniqueness_score, b.nn_similarity, b.is_outlier, b.duplicate_group,
        b.caption, b.tags, b.label, b.custom_fields, b.objects, b.enrichment
      from version_bases v join version_rows b on b.version_id = v.base_id
      where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id);

    alter table snapshots add column n_objects integer not null default 0;
    alter table datasets
      add column enrichment_context_id uuid not null default gen_random_uuid(),
      add column enrichment_models jsonb not null default '{}';

    create table enrichment_results (
      task_id uuid not null references tasks (id) on delete cascade,
      media_id uuid not null references media (id) on delete cascade,
      caption text,
      objects jsonb,
      enrichment jsonb,
      primary key (task_id, media_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table enrichment_results;
    alter table datasets drop column enrichment_context_id, drop column enrichment_models;
    alter table snapshots drop column n_objects;
    drop view version_media;
    create view version_media as
      select r.version_id, r.media_id, r.ordinal, r.cluster_l0, r.cluster_l1, r.cluster_l2, r.cluster_l3, r.cluster_l4,
        r.uniqueness_score, r.nn_similarity, r.is_outlier, r.duplicate_group,
        r.caption, r.tags, r.label, r.custom_fields
      from version_rows r
      union all
      select v.version_id, b.media_id, b.ordinal, b.cluster_l0, b.cluster_l1, b.cluster_l2, b.cluster_l3, b.cluster_l4,
        b.uniqueness_score, b.nn_similarity, b.is_outlier, b.duplicate_group,
        b.caption, b.tags, b.label, b.custom_fields
      from version_bases v join version_rows b on b.version_id = v.base_id
      where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id);
    alter table version_rows drop column objects, drop column enrichment;
  `.execute(db);
}
