import type { Db } from '../../adapters/db/database.js';
import type { NewDataset } from '../../adapters/db/schema.js';
import type { DatasetStatus } from '../../core/dataset-status.js';
import type { DatasetRole } from '../../core/permissions.js';

const DATASET_COLUMNS = [
  'datasets.id',
  'datasets.display_name',
  'datasets.description',
  'datasets.owner_id',
  'datasets.status_new',
  'datasets.progress',
  'datasets.n_images',
  'datasets.n_videos',
  'datasets.n_objects',
  'datasets.fatal_error_msg',
  'datasets.source_dataset_id',
  'datasets.snapshots_enabled',
  'datasets.head_version_id',
  'datasets.created_at',
] as const;

export class DatasetsRepo {
  constructor(private readonly db: Db) {}

  async insert(values: NewDataset, db: Db = this.db): Promise<string> {
    const row = await db.insertInto('datasets').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * A dataset made from another (a clone, an enriched copy): "<source name> (<suffix>)", its description, owned by
   * whoever made it, INDEXING until the task that fills it commits.
   */
  insertDerived(
    trx: Db,
    source: { id: string; display_name: string; description: string },
    derived: { suffix: string; ownerId: string; snapshotsEnabled: boolean },
  ): Promise<string> {
    return this.insert(
      {
        display_name: `${source.display_name} (${derived.suffix})`,
        description: source.description,
        owner_id: derived.ownerId,
        status_new: 'INDEXING',
        fatal_error_msg: null,
        source_dataset_id: source.id,
        snapshots_enabled: derived.snapshotsEnabled,
      },
      trx,
    );
  }

  /**
   * What operations decide on; `lock` (the default) holds the dataset's row until the caller's transaction
   * ends, so a check and the change it allows cannot interleave with another.
   */
  async operationState(trx: Db, datasetId: string, lock = true) {
    let q = trx.selectFrom('datasets').select(['status_new', 'head_version_id', 'embedding_config']).where('id', '=', datasetId);
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row && { status: row.status_new, headVersionId: row.head_version_id, embeddingConfig: row.embedding_config };
  }

  async snapshotsEnabled(trx: Db, datasetId: string): Promise<boolean> {
    const row = await trx.selectFrom('datasets').select('snapshots_enabled').where('id', '=', datasetId).executeTakeFirst();
    return row?.snapshots_enabled ?? false;
  }

  async setStatus(trx: Db, datasetId: string, status: DatasetStatus): Promise<void> {
    await trx.updateTable('datasets').set({ status_new: status, progress: 0 }).where('id', '=', datasetId).execute();
  }

  async update(datasetId: string, changes: { display_name?: string; description?: string }): Promise<void> {
    await this.db.updateTable('datasets').set(changes).where('id', '=', datasetId).execute();
  }

  async lock(trx: Db, datasetId: string): Promise<void> {
    await trx.selectFrom('datasets').select('id').where('id', '=', datasetId).forUpdate().executeTakeFirst();
  }

  async markIndexing(trx: Db, datasetId: string): Promise<void> {
    await trx.updateTable('datasets').set({ status_new: 'INDEXING', progress: 0, fatal_error_msg: null }).where('id', '=', datasetId).execute();
  }

  /** A change that recomputes the index shows INDEXING until it commits (it was READ ONLY while media were processed). */
  async markIndexingDuringChange(datasetId: string): Promise<void> {
    await this.db.updateTable('datasets').set({ status_new: 'INDEXING' }).where('id', '=', datasetId).where('status_new', '=', 'READ ONLY').execute();
  }

  async setProgress(datasetId: string, progress: number): Promise<void> {
    await this.db.updateTable('datasets').set({ progress }).where('id', '=', datasetId).execute();
  }

  /** The dataset with the caller's role on it, or undefined when the caller cannot see it. */
  async findForUser(datasetId: string, userId: string) {
    const row = await this.db
      .selectFrom('datasets')
      .innerJoin('users as owner', 'owner.id', 'datasets.owner_id')
      .leftJoin('dataset_access as access', (join) =>
        join.onRef('access.dataset_id', '=', 'datasets.id').on('access.user_id', '=', userId),
      )
      .select(DATASET_COLUMNS)
      .select(['owner.email as owner_email', 'access.role as shared_role'])
      .where('datasets.id', '=', datasetId)
      .executeTakeFirst();
    if (!row) return undefined;
    const role: DatasetRole | null = row.owner_id === userId ? 'owner' : (row.shared_role ?? null);
    return { ...row, role };
  }

  async listForUser(userId: string, limit: number, offset: number) {
    return this.db
      .selectFrom('datasets')
      .innerJoin('users as owner', 'owner.id', 'datasets.owner_id')
      .leftJoin('dataset_access as access', (join) =>
        join.onRef('access.dataset_id', '=', 'datasets.id').on('access.user_id', '=', userId),
      )
      .select(DATASET_COLUMNS)
      .select(['owner.email as owner_email'])
      .where((eb) => eb.or([eb('datasets.owner_id', '=', userId), eb('access.user_id', 'is not', null)]))
      .orderBy('datasets.created_at', 'desc')
      .orderBy('datasets.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
