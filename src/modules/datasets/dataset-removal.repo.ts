import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { ACTIVE_STATUSES, type TaskType } from '../../core/tasks.js';
import { deleteUnreferencedMedia } from '../versions/version-gc.repo.js';

/** Removing a dataset; its versions are left to the version sweep, since a clone may share them. */
export class DatasetRemovalRepo {
  constructor(private readonly db: Db) {}

  /** Holds the dataset's row until the caller's transaction ends; the type of a task still active on it, if any. */
  async lockIdle(trx: Db, datasetId: string): Promise<TaskType | undefined> {
    await trx.selectFrom('datasets').select('id').where('id', '=', datasetId).forUpdate().executeTakeFirst();
    const row = await trx.selectFrom('tasks').select('task_type').where('dataset_id', '=', datasetId).where('status', 'in', ACTIVE_STATUSES).executeTakeFirst();
    return row?.task_type;
  }

  /**
   * Deletes the dataset (its snapshots, uploads, exports and tasks go with it; its versions lose their
   * owner and are swept once nothing else uses them), the media only its uploads referenced, and queues
   * the uploads' and the export archives' blobs for the garbage sweep.
   */
  async remove(trx: Db, datasetId: string): Promise<void> {
    await sql`create temp table removed_media on commit drop as
      select distinct media_id from upload_files where dataset_id = ${datasetId}::uuid and media_id is not null`.execute(trx);
    await sql`insert into blob_gc_candidates (hash)
      select blob_hash from upload_files where dataset_id = ${datasetId}::uuid
      union select blob_hash from exports where dataset_id = ${datasetId}::uuid and blob_hash is not null
      on conflict (hash) do update set queued_at = now()`.execute(trx);
    const head = await trx.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirst();
    await trx.deleteFrom('datasets').where('id', '=', datasetId).execute();
    if (head?.head_version_id) await trx.updateTable('versions').set({ released_at: sql`now()` }).where('id', '=', head.head_version_id).execute();
    await deleteUnreferencedMedia(trx, 'removed_media');
  }
}
