import { type Kysely, sql } from 'kysely';

/**
 * What users and enrichment say about a media lives on its version row, so snapshots capture it and
 * every edit is a copy on write: the caption a captioner wrote, free-form tags, one label (class name)
 * and custom metadata fields.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table version_rows
      add column caption text,
      add column tags text[] not null default '{}',
      add column label text,
      add column custom_fields jsonb not null default '{}';

    create or replace view version_media as
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
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop view version_media;
    create view version_media as
      select r.version_id, r.media_id, r.ordinal, r.cluster_l0, r.cluster_l1, r.cluster_l2, r.cluster_l3, r.cluster_l4,
        r.uniqueness_score, r.nn_similarity, r.is_outlier, r.duplicate_group
      from version_rows r
      union all
      select v.version_id, b.media_id, b.ordinal, b.cluster_l0, b.cluster_l1, b.cluster_l2, b.cluster_l3, b.cluster_l4,
        b.uniqueness_score, b.nn_similarity, b.is_outlier, b.duplicate_group
      from version_bases v join version_rows b on b.version_id = v.base_id
      where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id);
    alter table version_rows drop column caption, drop column tags, drop column label, drop column custom_fields;
  `.execute(db);
}
