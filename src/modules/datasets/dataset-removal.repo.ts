import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';

/** Removing a dataset, and reclaiming the media and blobs nothing references any more. */
export class DatasetRemovalRepo {
  constructor(private readonly db: Db) {}

  /**
   * Deletes the dataset (its versions, uploads and tasks go with it), then the media no version or
   * upload references, queueing every blob they or the uploads used for the garbage sweep.
   */
  async remove(trx: Db, datasetId: string): Promise<void> {
    await sql`insert into blob_gc_candidates (hash)
      select f.blob_hash from upload_files f where f.dataset_id = ${datasetId}::uuid
      union
      select h from versions v
        join version_media vm on vm.version_id = v.id
        join media m on m.id = vm.media_id,
        unnest(array[m.blob_hash, m.thumb_hash, m.preview_hash]) h
      where v.dataset_id = ${datasetId}::uuid and h is not null
      on conflict (hash) do update set queued_at = now()`.execute(trx);
    await trx.deleteFrom('datasets').where('id', '=', datasetId).execute();
    await sql`delete from media m
      where not exists (select 1 from version_media vm where vm.media_id = m.id)
        and not exists (select 1 from upload_files f where f.media_id = m.id)`.execute(trx);
  }

  /** Candidates queued before `before` that no media or upload references now; removed from the queue. */
  async takeUnreferencedBlobs(before: Date, limit: number): Promise<string[]> {
    const result = await sql<{ hash: string }>`
      delete from blob_gc_candidates c
      where c.hash in (
        select hash from blob_gc_candidates
        where queued_at <= ${before}
        order by queued_at
        limit ${limit}
        for update skip locked)
      returning c.hash`.execute(this.db);
    const hashes = result.rows.map((r) => r.hash);
    if (hashes.length === 0) return [];
    const referenced = await sql<{ hash: string }>`
      select h as hash from unnest(${hashes}::text[]) h
      where exists (select 1 from media where blob_hash = h or thumb_hash = h or preview_hash = h)
         or exists (select 1 from upload_files where blob_hash = h)`.execute(this.db);
    const keep = new Set(referenced.rows.map((r) => r.hash));
    return hashes.filter((h) => !keep.has(h));
  }
}
