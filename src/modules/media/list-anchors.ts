import { sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import { versionRowsOf } from '../versions/cluster-summaries.js';

/** Media between two anchors of the media list: a page walks at most this many entries of the list's index. */
export const ANCHOR_STRIDE = 10_000;

/** Where a media list page starts: the key of the media at `position`, the nearest anchor at or before its offset. */
export interface ListAnchor {
  position: number;
  /** The media's creation time as PostgreSQL spells it (microseconds: a JS Date would drop them). */
  createdAt: string;
  mediaId: string;
}

/**
 * Writes the media list's anchors of a version (migration 0037): the key of every `stride`-th media of its list, for
 * all media ('') and for each type. Cost: one read of the version's rows with their media, sorted twice.
 */
export async function writeListAnchors(trx: Db, versionId: string, stride = ANCHOR_STRIDE): Promise<void> {
  await setWorkMem(trx, '256MB');
  await sql`insert into media_list_anchors (version_id, media_type, position, media_created_at, media_id)
    select ${versionId}::uuid, v.media_type, v.position, s.media_created_at, s.media_id from (
      select w.media_created_at, w.media_id, m.media_type,
        row_number() over (order by w.media_created_at, w.media_id) - 1 as all_position,
        row_number() over (partition by m.media_type order by w.media_created_at, w.media_id) - 1 as type_position
      from ${await versionRowsOf(trx, versionId)} w join media m on m.id = w.media_id
    ) s
    cross join lateral (values ('', s.all_position), (s.media_type, s.type_position)) v(media_type, position)
    where v.position > 0 and v.position % ${stride}::int = 0 and s.media_created_at is not null`.execute(trx);
}

/** The last anchor at or before `offset` in the version's list of `mediaType` ('' for all), if it has one. */
export async function listAnchor(db: Db, versionId: string, mediaType: string, offset: number): Promise<ListAnchor | undefined> {
  if (offset < 1) return undefined;
  const { rows } = await sql<ListAnchor>`select position, media_created_at::text as "createdAt", media_id as "mediaId" from media_list_anchors
    where version_id = ${versionId}::uuid and media_type = ${mediaType} and position <= ${offset}::int
    order by position desc limit 1`.execute(db);
  return rows[0];
}
