import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { SnapshotReason } from '../../adapters/db/schema.js';
import type { Db } from '../../adapters/db/database.js';

export interface SnapshotView {
  id: string;
  dataset_id: string;
  version_id: string;
  name: string;
  description: string;
  reason: SnapshotReason;
  n_images: number;
  n_videos: number;
  n_objects: number;
  created_at: Date;
  created_by_email: string;
  source_dataset_name: string;
  training_model_id: string | null;
  training_model_name: string | null;
  is_current: boolean;
  is_restoring: boolean;
}

/** Named, sealed versions of a dataset; soft-deleted ones never leave this repo. */
export class SnapshotsRepo {
  constructor(private readonly db: Db) {}

  private view(db: Db = this.db) {
    return db
      .selectFrom('snapshots as s')
      .innerJoin('datasets as d', 'd.id', 's.dataset_id')
      .innerJoin('users as u', 'u.id', 's.created_by')
      .select([
        's.id',
        's.dataset_id',
        's.version_id',
        's.name',
        's.description',
        's.reason',
        's.n_images',
        's.n_videos',
        's.n_objects',
        's.created_at',
        'u.email as created_by_email',
        'd.display_name as source_dataset_name',
        's.training_model_id',
        's.training_model_name',
        sql<boolean>`coalesce(d.current_snapshot_id = s.id, false)`.as('is_current'),
        sql<boolean>`exists (select 1 from tasks t where t.dataset_id = s.dataset_id and t.task_type = 'SNAPSHOT_RESTORE'
          and t.status in ('INITIALIZING', 'RUNNING') and t.config ->> 'snapshot_id' = s.id::text)`.as('is_restoring'),
      ])
      .where('s.deleted_at', 'is', null);
  }

  /** Newest first. */
  list(datasetId: string): Promise<SnapshotView[]> {
    return this.view().where('s.dataset_id', '=', datasetId).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute();
  }

  /** The snapshot when it belongs to `datasetId` and is not deleted. */
  find(datasetId: string, snapshotId: string, db: Db = this.db): Promise<SnapshotView | undefined> {
    return this.view(db).where('s.dataset_id', '=', datasetId).where('s.id', '=', snapshotId).executeTakeFirst();
  }

  async currentId(trx: Db, datasetId: string): Promise<string | null> {
    const row = await trx.selectFrom('datasets').select('current_snapshot_id').where('id', '=', datasetId).executeTakeFirst();
    return row?.current_snapshot_id ?? null;
  }

  /**
   * Seals the dataset's head and names it: the new snapshot becomes current. O(1) whatever the
   * dataset's size, since the head's rows are never copied; the next change forks them.
   */
  async record(
    trx: Db,
    snapshot: { datasetId: string; createdBy: string; reason: SnapshotReason; name?: string; description?: string },
  ): Promise<string> {
    const dataset = await trx
      .selectFrom('datasets')
      .select(['display_name', 'head_version_id', 'n_images', 'n_videos', 'n_objects'])
      .where('id', '=', snapshot.datasetId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!dataset.head_version_id) throw new Error(`dataset ${snapshot.datasetId} has no version to snapshot`);
    const id = randomUUID();
    await trx.updateTable('versions').set({ sealed: true }).where('id', '=', dataset.head_version_id).execute();
    await trx
      .insertInto('snapshots')
      .values({
        id,
        dataset_id: snapshot.datasetId,
        version_id: dataset.head_version_id,
        name: snapshot.name ?? `${dataset.display_name}_snapshot_${id}`,
        description: snapshot.description ?? '',
        reason: snapshot.reason,
        n_images: dataset.n_images,
        n_videos: dataset.n_videos,
        n_objects: dataset.n_objects,
        created_by: snapshot.createdBy,
        deleted_at: null,
        training_model_id: null,
        training_model_name: null,
      })
      .execute();
    await this.setCurrent(trx, snapshot.datasetId, id);
    return id;
  }

  async update(snapshotId: string, changes: { name?: string; description?: string }): Promise<void> {
    await this.db.updateTable('snapshots').set(changes).where('id', '=', snapshotId).where('deleted_at', 'is', null).execute();
  }

  async softDelete(trx: Db, snapshotId: string): Promise<void> {
    await trx.updateTable('snapshots').set({ deleted_at: sql`now()` }).where('id', '=', snapshotId).execute();
  }

  /** Holds the snapshot row (even a soft-deleted one) against changes until the transaction ends; false when it is gone. */
  async hold(trx: Db, snapshotId: string): Promise<boolean> {
    const row = await trx.selectFrom('snapshots').select('id').where('id', '=', snapshotId).forShare().executeTakeFirst();
    return row !== undefined;
  }

  async setCurrent(trx: Db, datasetId: string, snapshotId: string): Promise<void> {
    await trx.updateTable('datasets').set({ current_snapshot_id: snapshotId }).where('id', '=', datasetId).execute();
  }
}
