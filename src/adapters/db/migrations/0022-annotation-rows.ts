import { type Kysely, sql } from 'kysely';

/** The wide row's columns after the move, but version_id. */
const WIDE = ['media_id', 'ordinal', 'cluster_l0', 'cluster_l1', 'cluster_l2', 'cluster_l3', 'cluster_l4', 'uniqueness_score', 'nn_similarity', 'is_outlier', 'duplicate_group', 'caption', 'objects', 'enrichment'];
const wide = (alias: string) => sql.raw(WIDE.map((c) => `${alias}.${c}`).join(', '));

/**
 * Tags and labels, and custom fields, move out of the wide version rows into narrow rows of their own (one
 * table each), written only for annotated media. An edit used to copy whole version rows with their indexes
 * (measured: 100k tagged media in 2.2–5.6 s); a narrow row with one key costs a fraction of that, an edit
 * never copies imported fields nor an import tags, and a change that touches neither (an index, an
 * enrichment) carries them without copying. Each inherits like version rows: a version holds its own
 * `annotation_rows` (`field_rows`) and, when `annotation_bases` (`field_bases`) names one, those of that
 * (sealed) version it does not hold itself. `version_media` keeps its columns, so readers see no change.
 * Also mends versions that edits left without an ANN index row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table annotation_rows (
      version_id uuid not null,
      media_id uuid not null,
      tags text[] not null default '{}',
      label text,
      primary key (version_id, media_id)
    );
    create table annotation_bases (
      version_id uuid primary key references versions (id) on delete cascade,
      base_id uuid not null references versions (id)
    );
    create index annotation_bases_base_idx on annotation_bases (base_id);
    create table field_rows (
      version_id uuid not null,
      media_id uuid not null,
      custom_fields jsonb not null default '{}',
      primary key (version_id, media_id)
    );
    create table field_bases (
      version_id uuid primary key references versions (id) on delete cascade,
      base_id uuid not null references versions (id)
    );
    create index field_bases_base_idx on field_bases (base_id);

    -- Every version gets its annotated media as a full set of its own.
    insert into annotation_rows (version_id, media_id, tags, label)
      select version_id, media_id, tags, label from version_media where tags <> '{}' or label is not null;
    insert into field_rows (version_id, media_id, custom_fields)
      select version_id, media_id, custom_fields from version_media where custom_fields <> '{}';

    -- Edits made versions without an ANN index row, so similarity search failed after one: each such version
    -- gets its nearest ancestor's (forks copy it from now on).
    insert into version_indexes (version_id, model, dimensions, item_count, mean, ann_blob_hash, params)
      with recursive up as (
        select v.id as version_id, v.parent_id as ancestor from versions v
        where v.parent_id is not null and not exists (select 1 from version_indexes i where i.version_id = v.id)
        union all
        select up.version_id, p.parent_id from up join versions p on p.id = up.ancestor
        where p.parent_id is not null and not exists (select 1 from version_indexes i where i.version_id = up.ancestor)
      )
      select up.version_id, i.model, i.dimensions, i.item_count, i.mean, i.ann_blob_hash, i.params
      from up join version_indexes i on i.version_id = up.ancestor;

    drop view version_media;
    alter table version_rows drop column tags, drop column label, drop column custom_fields;

    -- Membership alone, for joins that need no annotation (an import matching its keys).
    create view version_members as
      select r.version_id, r.media_id from version_rows r
      union all
      select v.version_id, b.media_id from version_bases v join version_rows b on b.version_id = v.base_id
      where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id);

    create view version_annotations as
      select a.version_id, a.media_id, a.tags, a.label from annotation_rows a
      union all
      select v.version_id, b.media_id, b.tags, b.label
      from annotation_bases v join annotation_rows b on b.version_id = v.base_id
      where not exists (select 1 from annotation_rows own where own.version_id = v.version_id and own.media_id = b.media_id);

    create view version_fields as
      select f.version_id, f.media_id, f.custom_fields from field_rows f
      union all
      select v.version_id, b.media_id, b.custom_fields
      from field_bases v join field_rows b on b.version_id = v.base_id
      where not exists (select 1 from field_rows own where own.version_id = v.version_id and own.media_id = b.media_id);

    create view version_media as
      select w.version_id, w.media_id, w.ordinal, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4,
        w.uniqueness_score, w.nn_similarity, w.is_outlier, w.duplicate_group, w.caption,
        coalesce(a.tags, '{}') as tags, a.label, coalesce(f.custom_fields, '{}') as custom_fields, w.objects, w.enrichment
      from (
        select r.version_id, ${wide('r')} from version_rows r
        union all
        select v.version_id, ${wide('b')}
        from version_bases v join version_rows b on b.version_id = v.base_id
        where not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id)
      ) w
      left join version_annotations a on a.version_id = w.version_id and a.media_id = w.media_id
      left join version_fields f on f.version_id = w.version_id and f.media_id = w.media_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create temp table annotations_down as select version_id, media_id, tags, label, custom_fields from version_media
      where tags <> '{}' or label is not null or custom_fields <> '{}';
    drop view version_media;
    drop view version_annotations;
    drop view version_fields;
    drop view version_members;
    alter table version_rows add column tags text[] not null default '{}', add column label text,
      add column custom_fields jsonb not null default '{}';
    update version_rows r set tags = d.tags, label = d.label, custom_fields = d.custom_fields
      from annotations_down d where d.version_id = r.version_id and d.media_id = r.media_id;
    drop table annotation_bases;
    drop table annotation_rows;
    drop table field_bases;
    drop table field_rows;
    create view version_media as
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
  `.execute(db);
}
