import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { DatasetStatus } from '../../core/dataset-status.js';
import type { StatusChange } from '../../core/lifecycle.js';
import type { TaskType } from '../../core/tasks.js';

/** The SQL of the dataset lifecycle: the only place that writes `datasets.status_new` after a dataset's insert. */
export class DatasetLifecycleRepo {
  /**
   * What operations decide on; `lock` holds the dataset's row until the caller's transaction ends, so a
   * check and the change it allows cannot interleave with another.
   */
  async state(trx: Db, datasetId: string, lock: boolean) {
    let q = trx.selectFrom('datasets').select(['status_new', 'head_version_id', 'embedding_config']).where('id', '=', datasetId);
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row && { status: row.status_new, headVersionId: row.head_version_id, embeddingConfig: row.embedding_config };
  }

  /**
   * Types of the tasks running on the dataset, the clones and enrichments made from it included (they run
   * on the new dataset but block a restore of this one, and an enrichment every change): what the
   * operation guard decides on.
   */
  async runningTypes(trx: Db, datasetId: string): Promise<TaskType[]> {
    const rows = await sql<{ task_type: TaskType }>`
      select distinct task_type from tasks
      where status in ('INITIALIZING', 'RUNNING')
        and (dataset_id = ${datasetId}::uuid
          or (task_type in ('SNAPSHOT_CLONE', 'ENRICHMENT') and config ->> 'source_dataset_id' = ${datasetId}::text))`.execute(trx);
    return rows.rows.map((r) => r.task_type);
  }

  async lock(trx: Db, datasetId: string): Promise<void> {
    await trx.selectFrom('datasets').select('id').where('id', '=', datasetId).forUpdate().executeTakeFirst();
  }

  /** A start's status: its progress starts over; INDEXING (built again) also drops an earlier failure's message. */
  async setStartStatus(trx: Db, datasetId: string, status: DatasetStatus, clearError: boolean): Promise<void> {
    await trx
      .updateTable('datasets')
      .set({ status_new: status, progress: 0, ...(clearError ? { fatal_error_msg: null } : {}) })
      .where('id', '=', datasetId)
      .execute();
  }

  async apply(trx: Db, datasetId: string, change: StatusChange): Promise<void> {
    await trx
      .updateTable('datasets')
      .set({ status_new: change.to, ...change.set })
      .where('id', '=', datasetId)
      .where('status_new', 'in', change.from)
      .execute();
  }

  /**
   * A dataset made from another (a clone, an enriched copy): "<source name> (<suffix>)", its description, owned by
   * whoever made it, INDEXING until the task that fills it commits.
   */
  async insertCopy(trx: Db, copy: CopyOf): Promise<string> {
    const { source } = copy;
    const row = await trx
      .insertInto('datasets')
      .values({
        display_name: `${source.display_name} (${copy.suffix})`,
        description: source.description,
        owner_id: copy.ownerId,
        status_new: 'INDEXING',
        fatal_error_msg: null,
        source_dataset_id: source.id,
        snapshots_enabled: copy.snapshotsEnabled,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
}

export interface CopyOf {
  source: { id: string; display_name: string; description: string };
  suffix: string;
  ownerId: string;
  snapshotsEnabled: boolean;
}
