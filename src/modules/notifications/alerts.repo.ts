import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';

export interface PendingBatch {
  id: string;
  dataset_id: string;
  trans_id: number;
  /** The version the batch committed, or the dataset's head once the sweep reclaimed that one. */
  version_id: string | null;
  dataset_name: string;
}

export interface MonitoredView {
  id: string;
  name: string;
  query: Record<string, unknown>;
}

/** What alert evaluation reads and writes besides the notifications themselves. */
export class AlertsRepo {
  constructor(private readonly db: Db) {}

  /**
   * The oldest batch whose alerts were not evaluated, locked for the caller's transaction; other workers
   * skip it rather than wait, so two never evaluate the same batch at once.
   */
  async claimPending(trx: Db, skip: string[]): Promise<PendingBatch | undefined> {
    const { rows } = await sql<PendingBatch>`
      select b.id, b.dataset_id, b.trans_id, coalesce(b.version_id, d.head_version_id) as version_id, d.display_name as dataset_name
      from media_batches b join datasets d on d.id = b.dataset_id
      where b.alerts_evaluated_at is null and b.id <> all(${skip}::uuid[])
      order by b.processed_at, b.id
      limit 1
      for update of b skip locked`.execute(trx);
    return rows[0];
  }

  async markEvaluated(trx: Db, batchId: string): Promise<void> {
    await trx.updateTable('media_batches').set({ alerts_evaluated_at: sql<Date>`now()` }).where('id', '=', batchId).execute();
  }

  /** The batch's new media: the media of its upload files, and the frames of its videos. */
  async batchMedia(datasetId: string, transId: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      select distinct m.id from upload_files f join media m on m.id = f.media_id or m.parent_media_id = f.media_id
      where f.dataset_id = ${datasetId}::uuid and f.trans_id = ${transId}::int`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** Views that both monitor new batches and alert on them. */
  monitoredViews(datasetId: string): Promise<MonitoredView[]> {
    return this.db
      .selectFrom('saved_views')
      .select(['id', 'name', 'query'])
      .where('dataset_id', '=', datasetId)
      .where('monitoring_enabled', '=', true)
      .where('alerting_enabled', '=', true)
      .orderBy('created_at')
      .execute();
  }

  /** The view's creator and chosen recipients who can still read the dataset now. */
  async entitledUsers(viewId: string, datasetId: string): Promise<string[]> {
    const { rows } = await sql<{ user_id: string }>`
      select u.user_id from (
        select created_by as user_id from saved_views where id = ${viewId}::uuid
        union select user_id from saved_view_recipients where view_id = ${viewId}::uuid
      ) u
      where exists (select 1 from datasets d where d.id = ${datasetId}::uuid and d.owner_id = u.user_id)
        or exists (select 1 from dataset_access a where a.dataset_id = ${datasetId}::uuid and a.user_id = u.user_id)
      order by u.user_id`.execute(this.db);
    return rows.map((r) => r.user_id);
  }
}
