import { type Kysely, sql } from 'kysely';

/** version_fields as migration 0022 made it: a version's own field_rows, and its base's it does not hold. */
const FIELDS_OF_ROWS = sql`
  create or replace view version_fields as
    select f.version_id, f.media_id, f.custom_fields from field_rows f
    union all
    select v.version_id, b.media_id, b.custom_fields
    from field_bases v join field_rows b on b.version_id = v.base_id
    where not exists (select 1 from field_rows own where own.version_id = v.version_id and own.media_id = b.media_id)`;

/**
 * A version whose custom fields are written whole and are many (an import of most of a large dataset) keeps them in
 * a table of its own, made, filled and keyed in the import's transaction, then attached to `field_sets` as the
 * partition for its version id (version-annotations.ts, writeSet). A million rows took 4.1–4.3 s into the shared,
 * indexed, logged `field_rows`; into a table of their own, with no WAL (a table made in the same transaction
 * needs none under wal_level minimal) and the key built once they are in, 2.3–2.8 s. There is no default
 * partition: one would be scanned, under an exclusive lock, at every attach. Deltas stay in `field_rows`.
 *
 * A base is reached through a LATERAL arm, so a delta over a set reads only that set's partition (pruned at run
 * time; a plain join scanned every set). The key leads with media_id: within a partition version_id is the same
 * everywhere, and a key built on it first compared two columns every time (1M rows: 0.9–1.3 s, against 0.4–0.5 s).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table field_sets (
      version_id uuid not null,
      media_id uuid not null,
      custom_fields jsonb not null default '{}',
      primary key (media_id, version_id)
    ) partition by list (version_id);

    create or replace view version_fields as
      select f.version_id, f.media_id, f.custom_fields from field_rows f
      union all
      select s.version_id, s.media_id, s.custom_fields from field_sets s
      union all
      select v.version_id, b.media_id, b.custom_fields
      from field_bases v cross join lateral (
        select x.media_id, x.custom_fields from field_rows x where x.version_id = v.base_id
        union all
        select y.media_id, y.custom_fields from field_sets y where y.version_id = v.base_id
      ) b
      where not exists (select 1 from field_rows own where own.version_id = v.version_id and own.media_id = b.media_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`insert into field_rows (version_id, media_id, custom_fields) select version_id, media_id, custom_fields from field_sets`.execute(db);
  await FIELDS_OF_ROWS.execute(db);
  await sql`drop table field_sets`.execute(db);
}
