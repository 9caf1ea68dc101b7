import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { DatasetStatus } from '../../core/dataset-status.js';

export interface VersionCounts {
  n_images: number;
  n_videos: number;
}

/** Copy-on-write membership: a change writes a new version beside the head and swaps the head on commit. */
export class VersionsRepo {
  constructor(private readonly db: Db) {}

  /**
   * The unsealed version a task writes its change into: forked from the head on the task's first run,
   * found again on a rerun so the work resumes instead of starting a second copy.
   */
  async forkForTask(trx: Db, datasetId: string, taskId: string): Promise<string> {
    const existing = await trx.selectFrom('versions').select(['id', 'sealed']).where('task_id', '=', taskId).executeTakeFirst();
    if (existing?.sealed) throw new Error(`version ${existing.id} of task ${taskId} is sealed and cannot be written`);
    return existing ? existing.id : this.fork(trx, datasetId, taskId);
  }

  /** A new unsealed version holding everything the current head holds. */
  async fork(trx: Db, datasetId: string, taskId: string | null = null): Promise<string> {
    const head = await trx.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).forUpdate().executeTakeFirstOrThrow();
    const { id } = await trx
      .insertInto('versions')
      .values({ dataset_id: datasetId, parent_id: head.head_version_id, task_id: taskId })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (head.head_version_id) {
      await sql`insert into version_media (version_id, media_id, ordinal, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4,
          uniqueness_score, nn_similarity, is_outlier, duplicate_group)
        select ${id}::uuid, media_id, ordinal, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4,
          uniqueness_score, nn_similarity, is_outlier, duplicate_group
        from version_media where version_id = ${head.head_version_id}::uuid`.execute(trx);
    }
    return id;
  }

  /** Adds the media an upload transaction produced, with the frames of its videos. */
  async addTransactionMedia(trx: Db, versionId: string, datasetId: string, transId: number): Promise<void> {
    await sql`insert into version_media (version_id, media_id)
      select ${versionId}::uuid, m.id
      from upload_files f join media m on m.id = f.media_id or m.parent_media_id = f.media_id
      where f.dataset_id = ${datasetId}::uuid and f.trans_id = ${transId}::int
      on conflict do nothing`.execute(trx);
  }

  async counts(trx: Db, versionId: string): Promise<VersionCounts> {
    const row = await trx
      .selectFrom('version_media as vm')
      .innerJoin('media as m', 'm.id', 'vm.media_id')
      .select([
        sql<number>`count(*) filter (where m.media_type = 'IMAGE')::int8`.as('n_images'),
        sql<number>`count(*) filter (where m.media_type = 'VIDEO')::int8`.as('n_videos'),
      ])
      .where('vm.version_id', '=', versionId)
      .executeTakeFirstOrThrow();
    return row;
  }

  /** Makes `versionId` the dataset's head; the one it replaces is released (the sweep reclaims it when nothing else holds it). */
  async swapHead(trx: Db, datasetId: string, versionId: string, counts: VersionCounts, status: DatasetStatus): Promise<void> {
    const previous = await trx.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).forUpdate().executeTakeFirstOrThrow();
    await trx
      .updateTable('datasets')
      .set({ head_version_id: versionId, status_new: status, progress: 100, fatal_error_msg: null, ...counts })
      .where('id', '=', datasetId)
      .execute();
    if (previous.head_version_id && previous.head_version_id !== versionId) {
      await trx.updateTable('versions').set({ released_at: sql`now()` }).where('id', '=', previous.head_version_id).execute();
    }
  }

  /** Sealed versions are never written again: every later change forks a new one. */
  async seal(trx: Db, versionId: string): Promise<void> {
    await trx.updateTable('versions').set({ sealed: true }).where('id', '=', versionId).execute();
  }
}
