import type { Db } from '../../adapters/db/database.js';
import type { NewDataset } from '../../adapters/db/schema.js';
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

  async snapshotsEnabled(trx: Db, datasetId: string): Promise<boolean> {
    const row = await trx.selectFrom('datasets').select('snapshots_enabled').where('id', '=', datasetId).executeTakeFirst();
    return row?.snapshots_enabled ?? false;
  }

  async update(datasetId: string, changes: { display_name?: string; description?: string }): Promise<void> {
    await this.db.updateTable('datasets').set(changes).where('id', '=', datasetId).execute();
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
