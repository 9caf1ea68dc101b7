import { type Kysely, sql } from 'kysely';

/** The wide row's columns but version_id, as 0022 left them. */
const WIDE = ['media_id', 'ordinal', 'cluster_l0', 'cluster_l1', 'cluster_l2', 'cluster_l3', 'cluster_l4', 'uniqueness_score', 'nn_similarity', 'is_outlier', 'duplicate_group', 'caption', 'objects', 'enrichment'];

/** version_media as 0022 made it, with `extra` (a column of the wide rows) appended. */
function versionMedia(verb: 'create' | 'create or replace', extra: string[]) {
  const columns = [...WIDE, ...extra];
  const wide = (alias: string) => sql.raw(columns.map((c) => `${alias}.${c}`).join(', '));
  const tail = sql.raw(extra.map((c) => `, w.${c}`).join(''));
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
 * Filtered Explore pages read what an index finds instead of testing every row of the version. Text search read a
 * tsvector built per row from the caption and the detected objects (at 1M media a search matching nothing took
 * 2.7 s): it is now stored on the version row (`text_search`, generated, so every copy on write recomputes it without
 * naming it) with a GIN index. Rows with neither caption nor objects, most of them, store null and stay out of the
 * index, so a fork of unenriched rows pays nothing for it. (A partial index for outliers was tried: at 1M media the
 * planner then sorted the 50k outliers and merged them with every media by key: 4.1 s a page, where the blur filter,
 * unindexed, took 0.66 s in the same run.)
 *
 * The media list pages a version's media oldest first: it sorted every member by media.created_at (0.68–0.96 s a page
 * at 1M). The media's creation time is now kept on its version rows (`media_created_at`, copied on write with the
 * row; a row inserted without it, a new member, takes it from the media by a trigger that copies never fire) with an
 * index in the list's order, so a page walks the index. Its total, a count of every member, is kept per version and
 * media type in `media_list_totals` once counted, for the same reason as the views' counts below.
 *
 * The views list showed each view's counts, a filtered count over the whole dataset per view at every request. A
 * version's rows never change once it is a head (a change writes a new version), so those counts are kept per view and
 * head version with the query they count (`saved_view_counts`): a list counts a view once per head and query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function media_caption_text(caption text, objects jsonb) returns tsvector language sql immutable parallel safe as $$
      select to_tsvector('english', coalesce(caption, '') || ' ' || coalesce(
        (select string_agg(concat_ws(' ', o ->> 'label', o ->> 'caption', o ->> 'text'), ' ')
         from jsonb_array_elements(case when jsonb_typeof(objects) = 'array' then objects end) o), ''))
    $$;
    alter table version_rows add column text_search tsvector generated always as
      (case when caption is null and objects is null then null else media_caption_text(caption, objects) end) stored;
    create index version_rows_text_idx on version_rows using gin (text_search) where text_search is not null;

    alter table version_rows add column media_created_at timestamptz;
    update version_rows r set media_created_at = m.created_at from media m where m.id = r.media_id;
    create index version_rows_created_idx on version_rows (version_id, media_created_at, media_id);
    create function version_rows_media_created_at() returns trigger language plpgsql as $$
      begin
        select created_at into new.media_created_at from media where id = new.media_id;
        return new;
      end $$;
    create trigger version_rows_media_created_at before insert on version_rows
      for each row when (new.media_created_at is null) execute function version_rows_media_created_at();

    create table media_list_totals (
      version_id uuid not null references versions (id) on delete cascade,
      media_type text not null,
      total integer not null,
      primary key (version_id, media_type)
    );

    create table saved_view_counts (
      view_id uuid not null references saved_views (id) on delete cascade,
      version_id uuid not null references versions (id) on delete cascade,
      query jsonb not null,
      counts jsonb not null,
      primary key (view_id, version_id)
    );
    create index saved_view_counts_version_idx on saved_view_counts (version_id);
  `.execute(db);
  await versionMedia('create or replace', ['text_search', 'media_created_at']).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view version_media`.execute(db);
  await versionMedia('create', []).execute(db);
  await sql`
    drop table saved_view_counts;
    drop table media_list_totals;
    drop trigger version_rows_media_created_at on version_rows;
    drop function version_rows_media_created_at();
    alter table version_rows drop column media_created_at;
    alter table version_rows drop column text_search;
    drop function media_caption_text(text, jsonb);
  `.execute(db);
}
