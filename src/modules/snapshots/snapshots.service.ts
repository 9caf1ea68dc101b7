import type { Db } from '../../adapters/db/database.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { SnapshotView, SnapshotsRepo } from './snapshots.repo.js';

/** Spec 4.1: list, create, rename, restore, clone and soft-delete the snapshots of a dataset. */
export class SnapshotsService {
  constructor(
    private readonly db: Db,
    private readonly repo: SnapshotsRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
  ) {}

  /** Access first (404 hidden, 403 without write), then the feature (403 for datasets without snapshot support). */
  private async authorize(principal: Principal, datasetId: string, action: 'read' | 'write') {
    const dataset = await this.datasets.authorize(principal, datasetId, action);
    if (!dataset.snapshots_enabled) throw errors.snapshotsDisabled();
    return dataset;
  }

  async list(principal: Principal, datasetId: string): Promise<SnapshotView[]> {
    await this.authorize(principal, datasetId, 'read');
    return this.repo.list(datasetId);
  }

  /** Seals the head under the dataset's row lock after the guard: O(1) for any dataset size. */
  async create(principal: Principal, datasetId: string, body: { name?: string; description?: string }): Promise<SnapshotView> {
    await this.authorize(principal, datasetId, 'write');
    const name = body.name?.trim();
    if (body.name !== undefined && !name) throw errors.validation('name must not be empty');
    const id = await this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'create_snapshot');
      if (!state.headVersionId) throw errors.noDataToSnapshot();
      return this.repo.record(trx, { datasetId, createdBy: principal.userId, reason: 'manual', name, description: body.description });
    });
    return (await this.repo.find(datasetId, id))!;
  }

  async update(principal: Principal, datasetId: string, snapshotId: string, changes: { name?: string; description?: string }): Promise<SnapshotView> {
    await this.authorize(principal, datasetId, 'write');
    const name = changes.name?.trim();
    if (changes.name !== undefined && !name) throw errors.validation('name must not be empty');
    if (!(await this.repo.find(datasetId, snapshotId))) throw errors.snapshotNotFound();
    await this.repo.update(snapshotId, { ...changes, ...(name === undefined ? {} : { name }) });
    return (await this.repo.find(datasetId, snapshotId))!;
  }

  /**
   * Starts a SNAPSHOT_RESTORE task: the dataset is READ ONLY until the task makes the snapshot's version
   * its head; reads keep serving the old head meanwhile. `current` names the dataset's current snapshot.
   */
  async restore(principal: Principal, datasetId: string, snapshotId: string | 'current'): Promise<string> {
    await this.authorize(principal, datasetId, 'write');
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.state(trx, datasetId);
      const id = snapshotId === 'current' ? await this.repo.currentId(trx, datasetId) : snapshotId;
      if (id === null) throw errors.noCurrentSnapshot();
      const snapshot = await this.repo.find(datasetId, id, trx);
      if (!snapshot) throw errors.snapshotNotFound();
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'restore_snapshot',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: restore of snapshot ${snapshot.name}`,
        config: { snapshot_id: snapshot.id, version_id: snapshot.version_id },
      });
      return started.taskId;
    });
  }

  /**
   * Starts a SNAPSHOT_CLONE task on a new dataset owned by the caller, named "<original name> (cloned)";
   * the source is not blocked. The task's config holds the snapshot's version, so it outlives a deletion.
   */
  async clone(principal: Principal, datasetId: string, snapshotId: string): Promise<{ datasetId: string; taskId: string }> {
    const source = await this.authorize(principal, datasetId, 'write');
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.state(trx, datasetId);
      const snapshot = await this.repo.find(datasetId, snapshotId, trx);
      if (!snapshot) throw errors.snapshotNotFound();
      return this.lifecycle.start(trx, {
        datasetId,
        operation: 'clone_snapshot',
        state,
        copy: { source, suffix: 'cloned', ownerId: principal.userId, snapshotsEnabled: true },
        createdBy: principal.userId,
        statusMessage: `Queued: clone of snapshot ${snapshot.name}`,
        config: {
          snapshot_id: snapshot.id,
          version_id: snapshot.version_id,
          n_images: snapshot.n_images,
          n_videos: snapshot.n_videos,
          n_objects: snapshot.n_objects,
          embedding_config: state.embeddingConfig,
        },
      });
    });
  }

  /** Soft delete: the snapshot leaves every response; the current one (409) and one being restored (409) stay. */
  async remove(principal: Principal, datasetId: string, snapshotId: string): Promise<void> {
    await this.authorize(principal, datasetId, 'write');
    await this.db.transaction().execute(async (trx) => {
      await this.lifecycle.lock(trx, datasetId);
      const snapshot = await this.repo.find(datasetId, snapshotId, trx);
      if (!snapshot) throw errors.snapshotNotFound();
      if (snapshot.is_current) throw errors.currentSnapshotNotDeletable();
      if (snapshot.is_restoring) throw errors.snapshotBeingRestored();
      await this.repo.softDelete(trx, snapshotId);
    });
  }
}
