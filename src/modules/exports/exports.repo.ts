import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { addJob } from '../../adapters/queue/graphile-queue.js';
import type { ExportFormat, ExportState } from '../../core/exports.js';
import { type MediaSelection, selectedIds } from './export-items.js';

export const EXPORT_JOB = 'EXPORT';

export interface NewExport {
  datasetId: string;
  versionId: string;
  createdBy: string;
  fileName: string;
  format: ExportFormat;
  includeImages: boolean;
  selection: MediaSelection | null;
  status: 'PENDING' | 'REJECTED';
  resultMessage: string | null;
  itemCount: number;
  expiresAt: Date | null;
}

/** Export jobs: their rows, the job that builds each, and the checks a selection needs. */
export class ExportsRepo {
  constructor(private readonly db: Db) {}

  /** The row and, for a pending export, its job, in the caller's transaction. */
  async create(trx: Db, e: NewExport): Promise<string> {
    const { id } = await trx
      .insertInto('exports')
      .values({
        dataset_id: e.datasetId,
        version_id: e.versionId,
        created_by: e.createdBy,
        file_name: e.fileName,
        export_format: e.format,
        include_images: e.includeImages,
        selection: e.selection === null ? null : JSON.stringify(e.selection),
        status: e.status,
        result_message: e.resultMessage,
        item_count: e.itemCount,
        blob_hash: null,
        size: null,
        finished_at: e.status === 'REJECTED' ? new Date() : null,
        expires_at: e.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (e.status === 'PENDING') {
      await addJob(trx, EXPORT_JOB, { exportId: id }, { key: id, maxAttempts: 5 });
    }
    return id;
  }

  find(datasetId: string, exportId: string) {
    return this.db.selectFrom('exports').selectAll().where('dataset_id', '=', datasetId).where('id', '=', exportId).executeTakeFirst();
  }

  findById(exportId: string) {
    return this.db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
  }

  /** Marks a pending (or interrupted) export RUNNING for this run; undefined when it already ended. */
  async claim(exportId: string) {
    const row = await this.db
      .updateTable('exports')
      .set({ status: 'RUNNING', progress: 0 })
      .where('id', '=', exportId)
      .where('status', 'in', ['PENDING', 'RUNNING'])
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    const dataset = await this.db.selectFrom('datasets').select(['display_name', 'description', 'created_at']).where('id', '=', row.dataset_id).executeTakeFirstOrThrow();
    const user = await this.db.selectFrom('users').select('email').where('id', '=', row.created_by).executeTakeFirstOrThrow();
    return { ...row, dataset_name: dataset.display_name, dataset_description: dataset.description, dataset_created_at: dataset.created_at, exported_by: user.email };
  }

  async progress(exportId: string, progress: number): Promise<void> {
    await this.db.updateTable('exports').set({ progress }).where('id', '=', exportId).where('status', '=', 'RUNNING').execute();
  }

  /** False when the export is no longer there to finish (its dataset was deleted meanwhile). */
  async finish(
    exportId: string,
    outcome: { status: Extract<ExportState, 'COMPLETED' | 'FAILED'>; message: string; blobHash?: string; size?: number; expiresAt: Date },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('exports')
      .set({
        status: outcome.status,
        result_message: outcome.message,
        progress: outcome.status === 'COMPLETED' ? 100 : sql`progress`,
        blob_hash: outcome.blobHash ?? null,
        size: outcome.size ?? null,
        finished_at: sql`now()`,
        expires_at: outcome.expiresAt,
      })
      .where('id', '=', exportId)
      .where('status', '=', 'RUNNING')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async countItems(versionId: string, selection: MediaSelection | null): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int8 as n from (${selectedIds(versionId, selection)}) s`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  /** Of `ids`, those that are not media of the version. */
  async unknownMedia(versionId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<{ id: string }>`select distinct id from unnest(${ids}::uuid[]) id
      where not exists (select 1 from version_media where version_id = ${versionId}::uuid and media_id = id) order by id`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** Of `ids`, those that are no cluster of the version at any level (one scan of the version). */
  async unknownClusters(versionId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<{ id: string }>`select distinct id from unnest(${ids}::uuid[]) id
      except
      select c from version_media vm, unnest(array[vm.cluster_l0, vm.cluster_l1, vm.cluster_l2, vm.cluster_l3, vm.cluster_l4]) c
      where vm.version_id = ${versionId}::uuid and c = any(${ids}::uuid[])
      order by id`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** Deletes exports past their expiry and queues their archives for the blob sweep; returns how many went. */
  async expire(now: Date): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      with gone as (delete from exports where expires_at < ${now} returning blob_hash),
      queued as (insert into blob_gc_candidates (hash) select distinct blob_hash from gone where blob_hash is not null
        on conflict (hash) do update set queued_at = now())
      select count(*)::int as n from gone`.execute(this.db);
    return rows[0]?.n ?? 0;
  }
}
