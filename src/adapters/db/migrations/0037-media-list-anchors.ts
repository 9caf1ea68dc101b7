import { type Kysely, sql } from 'kysely';

/**
 * The media list pages a head's media oldest first by an index in that order (0032), so a page at offset k walked k
 * entries of it: 149 ms at offset 500k of 1M. `media_list_anchors` keeps, per version and media type ('' for all),
 * the key (media_created_at, media_id) of every STRIDE-th media in the list, written when the version becomes a head
 * (with its facet summaries): a page starts at the nearest anchor before its offset and walks at most STRIDE entries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table media_list_anchors (
      version_id uuid not null references versions (id) on delete cascade,
      media_type text not null,
      position integer not null,
      media_created_at timestamptz not null,
      media_id uuid not null,
      primary key (version_id, media_type, position)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table media_list_anchors`.execute(db);
}
