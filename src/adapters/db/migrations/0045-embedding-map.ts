import { type Kysely, sql } from 'kysely';

/** The wide row's columns but version_id, as 0032 left them in version_media. */
const WIDE = ['media_id', 'ordinal', 'cluster_l0', 'cluster_l1', 'cluster_l2', 'cluster_l3', 'cluster_l4', 'uniqueness_score', 'nn_similarity', 'is_outlier', 'duplicate_group', 'caption', 'objects', 'enrichment', 'text_search', 'media_created_at'];

/** version_media as 0032 made it, with `extra` (columns of the wide rows) appended. */
function versionMedia(verb: 'create' | 'create or replace', extra: string[]) {
  const columns = [...WIDE, ...extra];
  const wide = (alias: string) => sql.raw(columns.map((c) => `${alias}.${c}`).join(', '));
  const tail = sql.raw(['text_search', 'media_created_at', ...extra].map((c) => `, w.${c}`).join(''));
  return sql`
    ${sql.raw(verb)} view version_media as
      select w.version_id, w.media_id, w.ordinal, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4,
        w.uniqueness_score, w.nn_similarity, w.is_outlier, w.duplicate_group, w.caption,
        coalesce(a.tags, '{}') as tags, a.label, coalesce(f.custom_fields, '{}') as custom_fields, w.objects, w.enrichment${tail}
      from (
        select r.version_id, ${wide('r')} from version_rows r
        union all
        select v.version_id, ${wide('b')}
        from version_bases v join version_rows b on b.version_id = v.base_id
        where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id)
      ) w
      left join version_annotations a on a.version_id = w.version_id and a.media_id = w.media_id
      left join version_fields f on f.version_id = w.version_id and f.media_id = w.media_id`;
}

/**
 * The embedding map (issue 29, docs/curation.md): each indexed row's 2D position, copied on write with the row like
 * its clusters, so snapshots, restores and clones show the map of their version. Map pages and selections read a
 * rectangle of one version by the partial index (rows without a position stay out of it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table version_rows add column map_x real, add column map_y real;
    create index version_rows_map_idx on version_rows (version_id, map_x, map_y) include (media_id) where map_x is not null;
  `.execute(db);
  await versionMedia('create or replace', ['map_x', 'map_y']).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view version_media`.execute(db);
  await versionMedia('create', []).execute(db);
  await sql`
    drop index version_rows_map_idx;
    alter table version_rows drop column map_y, drop column map_x;
  `.execute(db);
}
