import { type Insertable, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { UploadFilesTable } from '../../adapters/db/schema.js';

export type NewUploadFile = Pick<Insertable<UploadFilesTable>, 'file_name' | 'blob_hash' | 'size' | 'kind' | 'format' | 'mime'>;

export class IngestionRepo {
  constructor(private readonly db: Db) {}

  /** The next trans_id of the dataset; the dataset row lock serialises concurrent openings. */
  async openTransaction(datasetId: string, userId: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('datasets').select('id').where('id', '=', datasetId).forUpdate().executeTakeFirstOrThrow();
      const { next } = await trx
        .selectFrom('upload_transactions')
        .select(sql<number>`coalesce(max(trans_id), 0) + 1`.as('next'))
        .where('dataset_id', '=', datasetId)
        .executeTakeFirstOrThrow();
      await trx.insertInto('upload_transactions').values({ dataset_id: datasetId, trans_id: next, created_by: userId }).execute();
      return next;
    });
  }

  async findTransaction(trx: Db, datasetId: string, transId: number, lock = false) {
    let q = trx.selectFrom('upload_transactions').selectAll().where('dataset_id', '=', datasetId).where('trans_id', '=', transId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  /** Idempotent: the same name with the same bytes in one transaction is one file, however often it is sent. */
  async addFiles(trx: Db, datasetId: string, transId: number, files: NewUploadFile[]): Promise<void> {
    if (files.length === 0) return;
    await trx
      .insertInto('upload_files')
      .values(files.map((f) => ({ ...f, dataset_id: datasetId, trans_id: transId, media_id: null, error: null })))
      .onConflict((oc) => oc.columns(['dataset_id', 'trans_id', 'file_name', 'blob_hash']).doNothing())
      .execute();
  }

  async countFiles(trx: Db, datasetId: string, transId: number): Promise<number> {
    const { n } = await trx
      .selectFrom('upload_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dataset_id', '=', datasetId)
      .where('trans_id', '=', transId)
      .executeTakeFirstOrThrow();
    return n;
  }

  async setTransactionStatus(trx: Db, datasetId: string, transId: number, status: 'OPEN' | 'PROCESSING' | 'PROCESSED'): Promise<void> {
    await trx.updateTable('upload_transactions').set({ status }).where('dataset_id', '=', datasetId).where('trans_id', '=', transId).execute();
  }

  async files(datasetId: string, transId: number) {
    return this.db
      .selectFrom('upload_files')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('trans_id', '=', transId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The transaction's files with ids in [first, last] that are neither linked to media nor failed, in id order. */
  async pendingFilesIn(datasetId: string, transId: number, range: { first: string; last: string }) {
    return this.db
      .selectFrom('upload_files')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('trans_id', '=', transId)
      .where('id', '>=', range.first)
      .where('id', '<=', range.last)
      .where('media_id', 'is', null)
      .where('error', 'is', null)
      .orderBy('id')
      .execute();
  }

  /** How many of the transaction's files are processed: linked to their media, or failed. */
  async countProcessed(datasetId: string, transId: number): Promise<number> {
    const row = await this.db
      .selectFrom('upload_files')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('dataset_id', '=', datasetId)
      .where('trans_id', '=', transId)
      .where((eb) => eb.or([eb('media_id', 'is not', null), eb('error', 'is not', null)]))
      .executeTakeFirstOrThrow();
    return row.n;
  }

  async recordFailure(fileId: string, reason: string): Promise<void> {
    await this.db.updateTable('upload_files').set({ error: reason }).where('id', '=', fileId).execute();
  }

  /** Links each file not linked yet to its media; returns the files linked here (the others some run linked first). */
  async linkMany(trx: Db, links: Array<{ fileId: string; mediaId: string }>): Promise<Set<string>> {
    if (links.length === 0) return new Set();
    const { rows } = await sql<{ id: string }>`
      update upload_files f set media_id = l.media_id, error = null
      from unnest(${links.map((l) => l.fileId)}::uuid[], ${links.map((l) => l.mediaId)}::uuid[]) as l (file_id, media_id)
      where f.id = l.file_id and f.media_id is null
      returning f.id`.execute(trx);
    return new Set(rows.map((r) => r.id));
  }

  /** False when the file is already linked (another run processed it first): the caller rolls back its media. */
  async linkMedia(trx: Db, fileId: string, mediaId: string): Promise<boolean> {
    const result = await trx
      .updateTable('upload_files')
      .set({ media_id: mediaId, error: null })
      .where('id', '=', fileId)
      .where('media_id', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
