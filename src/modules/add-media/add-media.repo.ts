import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { CHANNELS } from '../../adapters/events/pg-events.js';

/** The writes that start and finish a media batch. */
export class AddMediaRepo {
  constructor(private readonly db: Db) {}

  /** A new upload transaction for the batch, already PROCESSING (the dataset row is locked by the caller). */
  async openBatch(trx: Db, datasetId: string, userId: string): Promise<number> {
    const row = await sql<{ trans_id: number }>`
      insert into upload_transactions (dataset_id, trans_id, status, created_by)
      select ${datasetId}::uuid, coalesce(max(trans_id), 0) + 1, 'PROCESSING', ${userId}::uuid
      from upload_transactions where dataset_id = ${datasetId}::uuid
      returning trans_id`.execute(trx);
    return row.rows[0]!.trans_id;
  }

  /** Records the processed batch once (a rerun finds it) and tells listeners, both when the transaction commits. */
  async recordBatch(trx: Db, batch: { id: string; datasetId: string; transId: number; versionId: string }): Promise<void> {
    const { rows } = await sql<{ media_count: number }>`
      insert into media_batches (id, dataset_id, trans_id, version_id, media_count)
      select ${batch.id}::uuid, ${batch.datasetId}::uuid, ${batch.transId}::int, ${batch.versionId}::uuid, count(*)::int
      from upload_files f join media m on m.id = f.media_id or m.parent_media_id = f.media_id
      where f.dataset_id = ${batch.datasetId}::uuid and f.trans_id = ${batch.transId}::int
      on conflict (id) do nothing
      returning media_count`.execute(trx);
    if (rows.length === 0) return;
    const payload = JSON.stringify({ dataset_id: batch.datasetId, batch_id: batch.id, trans_id: batch.transId, media_count: rows[0]!.media_count });
    await sql`select pg_notify(${CHANNELS.mediaBatchProcessed}, ${payload})`.execute(trx);
  }
}
