import type { Db } from '../../adapters/db/database.js';
import { errors } from '../../core/errors.js';
import { type DatasetAction, authorize } from '../../core/permissions.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetRemovalRepo } from './dataset-removal.repo.js';
import type { DatasetsRepo } from './datasets.repo.js';

const FORBIDDEN_VERB: Record<DatasetAction, string> = {
  read: 'read',
  write: 'change',
  share: 'manage access to',
  delete: 'delete',
};

export class DatasetsService {
  constructor(
    private readonly db: Db,
    private readonly repo: DatasetsRepo,
    private readonly removal: DatasetRemovalRepo,
    private readonly snapshotsEnabled: boolean,
  ) {}

  /**
   * The access check every dataset route goes through: 404 when the caller cannot see the
   * dataset (never revealing that it exists), 403 when they can see it but not do `action`.
   */
  async authorize(principal: Principal, datasetId: string, action: DatasetAction) {
    const dataset = await this.repo.findForUser(datasetId, principal.userId);
    const decision = authorize(dataset?.role ?? null, action);
    if (decision === 'hidden' || !dataset) throw errors.datasetNotFound();
    if (decision === 'forbidden') throw errors.forbidden(FORBIDDEN_VERB[action]);
    return dataset;
  }

  /**
   * An empty dataset that waits for its first upload transaction; SNAPSHOTS_ENABLED decides its snapshot support.
   * Its first status, INDEXING, is the insert's value: every later status is the dataset lifecycle's.
   */
  async create(principal: Principal, name: string | undefined) {
    const displayName = name?.trim();
    if (!displayName) throw errors.missingParameter('dataset_name');
    return this.repo.insert({
      display_name: displayName,
      owner_id: principal.userId,
      status_new: 'INDEXING',
      fatal_error_msg: null,
      source_dataset_id: null,
      snapshots_enabled: this.snapshotsEnabled,
    });
  }

  get(principal: Principal, datasetId: string) {
    return this.authorize(principal, datasetId, 'read');
  }

  async update(principal: Principal, datasetId: string, changes: { display_name?: string; description?: string }) {
    await this.authorize(principal, datasetId, 'write');
    const displayName = changes.display_name?.trim();
    if (changes.display_name !== undefined && !displayName) throw errors.validation('display_name must not be empty');
    await this.repo.update(datasetId, { ...changes, ...(displayName === undefined ? {} : { display_name: displayName }) });
    return this.authorize(principal, datasetId, 'read');
  }

  /** Owner only, and never under a running task; the blobs nothing else uses are reclaimed by the garbage sweep. */
  async remove(principal: Principal, datasetId: string): Promise<void> {
    await this.authorize(principal, datasetId, 'delete');
    await this.db.transaction().execute(async (trx) => {
      const running = await this.removal.lockIdle(trx, datasetId);
      if (running) throw errors.operationRunning(running);
      await this.removal.remove(trx, datasetId);
    });
  }

  list(principal: Principal, page: { limit: number; offset: number }) {
    return this.repo.listForUser(principal.userId, page.limit, page.offset);
  }
}
