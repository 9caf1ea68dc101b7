import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { CUSTOM_FIELDS, setTablePrefix } from './version-annotations.js';

export interface VersionSweepResult {
  snapshotsPurged: number;
  versionsDeleted: number;
  mediaDeleted: number;
}

/**
 * Reclaims versions nothing references: not a dataset's head, not another version's base (of rows, annotations
 * or fields), not held by a
 * snapshot (a soft-deleted one holds it until purged), not the working or source version of an active task
 * or a running export. Media no version or upload uses any more go with them, their blobs to the blob queue.
 */
export class VersionGcRepo {
  constructor(private readonly db: Db) {}

  async sweep(options: { releasedBefore: Date; purgeDeletedBefore: Date; limit: number }): Promise<VersionSweepResult> {
    return this.db.transaction().execute(async (trx) => {
      const purged = await trx.deleteFrom('snapshots').where('deleted_at', '<', options.purgeDeletedBefore).executeTakeFirst();
      const candidates = await sql<{ id: string; dataset_id: string | null }>`
        select v.id, v.dataset_id from versions v
        where coalesce(v.released_at, v.created_at) < ${options.releasedBefore}
          and not exists (select 1 from datasets d where d.head_version_id = v.id)
          and not exists (select 1 from snapshots s where s.version_id = v.id)
          and not exists (select 1 from versions c where c.base_id = v.id)
          and not exists (select 1 from annotation_bases a where a.base_id = v.id)
          and not exists (select 1 from field_bases f where f.base_id = v.id)
          and not exists (select 1 from tasks t where t.status in ('INITIALIZING', 'RUNNING')
            and (t.id = v.task_id or t.config ->> 'version_id' = v.id::text))
          and not exists (select 1 from exports e where e.version_id = v.id and e.status in ('PENDING', 'RUNNING'))
        order by coalesce(v.released_at, v.created_at)
        limit ${options.limit}
        for update skip locked`.execute(trx);
      // The versions of a dataset whose row a change holds (an edit or a task's commit, which lock it first) wait for
      // the next sweep: the sweep's cascades (a child's parent_id set null) and that change's own writes to the same
      // versions deadlocked, failing the edit.
      const datasetIds = [...new Set(candidates.rows.flatMap((r) => (r.dataset_id ? [r.dataset_id] : [])))];
      const free = new Set(
        datasetIds.length === 0
          ? []
          : (await sql<{ id: string }>`select id from datasets where id = any(${datasetIds}::uuid[]) for no key update skip locked`.execute(trx)).rows.map((r) => r.id),
      );
      const ids = candidates.rows.filter((r) => r.dataset_id === null || free.has(r.dataset_id)).map((r) => r.id);
      if (ids.length === 0) return { snapshotsPurged: Number(purged.numDeletedRows), versionsDeleted: 0, mediaDeleted: 0 };

      await sql`create temp table gc_media on commit drop as
        select distinct media_id from version_rows where version_id = any(${ids}::uuid[])`.execute(trx);
      // Distinct: versions with the same content share an index blob, and one insert may not update a row twice.
      await sql`insert into blob_gc_candidates (hash)
        select distinct hash from version_indexes, unnest(array[ann_blob_hash, graph_blob_hash]) hash
        where version_id = any(${ids}::uuid[]) and hash is not null
        on conflict (hash) do update set queued_at = now()`.execute(trx);
      // version_rows has no foreign key (its triggers doubled the cost of every copy on write): rows go first.
      await trx.deleteFrom('version_rows').where('version_id', 'in', ids).execute();
      await trx.deleteFrom('annotation_rows').where('version_id', 'in', ids).execute();
      await trx.deleteFrom('field_rows').where('version_id', 'in', ids).execute();
      await sql`delete from cluster_summaries where version_id = any(${ids}::uuid[])`.execute(trx);
      await sql`delete from facet_summaries where version_id = any(${ids}::uuid[])`.execute(trx);
      await sql`delete from facet_totals where version_id = any(${ids}::uuid[])`.execute(trx);
      await sql`delete from version_issue_media where version_id = any(${ids}::uuid[])`.execute(trx);
      await trx.deleteFrom('versions').where('id', 'in', ids).execute();
      const media = await deleteUnreferencedMedia(trx, 'gc_media');
      return { snapshotsPurged: Number(purged.numDeletedRows), versionsDeleted: ids.length, mediaDeleted: media };
    });
  }

  /**
   * Drops the field sets (migration 0025) of versions that are gone; returns how many went. Dropping a partition
   * takes field_sets, which every read of fields goes through, from all of them: each drop waits at most
   * SET_DROP_WAIT for the reads under way (new ones queue behind it meanwhile), and one that would wait longer,
   * behind a long export say, is left for the next sweep.
   */
  async dropOrphanSets(): Promise<number> {
    const prefix = setTablePrefix(CUSTOM_FIELDS);
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${CUSTOM_FIELDS.sets!}::regclass
        and not exists (select 1 from versions v where v.id = substr(c.relname, ${prefix.length + 1}::int)::uuid)`.execute(this.db);
    let dropped = 0;
    for (const { name } of rows) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = ${sql.lit(SET_DROP_WAIT)}`.execute(trx);
          await sql`drop table if exists ${sql.table(name)}`.execute(trx);
        });
        dropped += 1;
      } catch (err) {
        if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw err;
      }
    }
    return dropped;
  }
}

const SET_DROP_WAIT = '250ms';
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Deletes the media listed in `table` (a temp table of media_id) that no version or upload references,
 * with their frames, and queues every blob they used (and the graphs of detections none of whose objects is left);
 * returns how many went.
 */
export async function deleteUnreferencedMedia(trx: Db, table: string): Promise<number> {
  const deleted = await sql<{ n: number }>`
    with gone as (
      delete from media m using ${sql.table(table)} g
      where m.id = g.media_id
        and not exists (select 1 from version_rows vm where vm.media_id = m.id)
        and not exists (select 1 from upload_files f where f.media_id = m.id)
      returning m.id, m.blob_hash, m.thumb_hash, m.preview_hash
    ), frames as (
      select f.blob_hash, f.thumb_hash, f.preview_hash from media f join gone on f.parent_media_id = gone.id
    ), hashes as (
      select h from (select blob_hash, thumb_hash, preview_hash from gone union all select * from frames) x,
        unnest(array[x.blob_hash, x.thumb_hash, x.preview_hash]) h
      where h is not null
    ), queued as (
      insert into blob_gc_candidates (hash) select distinct h from hashes
      on conflict (hash) do update set queued_at = now()
    )
    select count(*)::int as n from gone`.execute(trx);
  // A detection's object graph goes with its last object (whose rows the media took along).
  await sql`with gone as (
      delete from object_graphs g where not exists (select 1 from object_embeddings e where e.task_id = g.task_id) returning g.graph_blob_hash
    )
    insert into blob_gc_candidates (hash) select distinct graph_blob_hash from gone
    on conflict (hash) do update set queued_at = now()`.execute(trx);
  return deleted.rows[0]?.n ?? 0;
}
