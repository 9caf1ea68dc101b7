import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';

/** Removing a dataset and the media nothing references any more; its blobs go to the garbage queue. */
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
      union
      select i.ann_blob_hash from versions v join version_indexes i on i.version_id = v.id
      where v.dataset_id = ${datasetId}::uuid and i.ann_blob_hash is not null
      on conflict (hash) do update set queued_at = now()`.execute(trx);
    await trx.deleteFrom('datasets').where('id', '=', datasetId).execute();
    await sql`delete from media m
      where not exists (select 1 from version_media vm where vm.media_id = m.id)
        and not exists (select 1 from upload_files f where f.media_id = m.id)`.execute(trx);
  }
}
