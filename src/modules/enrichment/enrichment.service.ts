import type { Db } from '../../adapters/db/database.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import { type EnrichmentModel, resolveRequest } from './enrichment-models.js';
import type { EnrichmentRepo } from './enrichment.repo.js';

export type ContextStatus = 'NEW' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface EnrichmentContext {
  enrichment_context_id: string;
  status: ContextStatus;
  enrichment_models: Record<string, string>;
}

/** Spec 4.4: the models this server can apply, a dataset's enrichment context, and enriched copies. */
export class EnrichmentService {
  constructor(
    private readonly db: Db,
    private readonly repo: EnrichmentRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly catalogue: () => EnrichmentModel[],
  ) {}

  async listModels(principal: Principal, datasetId: string): Promise<EnrichmentModel[]> {
    await this.datasets.authorize(principal, datasetId, 'read');
    return this.catalogue();
  }

  /** NEW until something is applied; an enriched copy shows its task's progress, then what was applied. */
  async context(principal: Principal, datasetId: string): Promise<EnrichmentContext> {
    await this.datasets.authorize(principal, datasetId, 'read');
    const row = await this.repo.context(datasetId);
    if (!row) throw errors.datasetNotFound();
    const applied = Object.keys(row.enrichment_models).length > 0;
    const status: ContextStatus = applied
      ? 'COMPLETED'
      : row.task_status === 'INITIALIZING' || row.task_status === 'RUNNING'
        ? 'IN_PROGRESS'
        : row.task_status === 'FAILED' || row.task_status === 'ABORTED'
          ? 'FAILED'
          : 'NEW';
    return { enrichment_context_id: row.enrichment_context_id, status, enrichment_models: row.enrichment_models };
  }

  /**
   * Creates "<name> (enriched)" (INDEXING, owned by the caller) and an ENRICHMENT task on it that reads the
   * source's head; the source stays READ ONLY until the task ends, whatever its outcome.
   */
  async enrich(principal: Principal, datasetId: string, requested: Record<string, string>): Promise<{ datasetId: string; taskId: string }> {
    const source = await this.datasets.authorize(principal, datasetId, 'write');
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.state(trx, datasetId);
      const applied = (await this.repo.context(datasetId))?.enrichment_models ?? {};
      const models = resolveRequest(this.catalogue(), requested, applied);
      this.lifecycle.guard(state, 'enrich_dataset');
      if (!state.headVersionId) throw errors.notIndexed(datasetId);
      return this.lifecycle.start(trx, {
        datasetId,
        operation: 'enrich_dataset',
        state,
        copy: { source, suffix: 'enriched', ownerId: principal.userId, snapshotsEnabled: source.snapshots_enabled },
        createdBy: principal.userId,
        statusMessage: `Queued: enrichment of ${source.display_name} with ${models.map((m) => m.id).join(', ')}`,
        config: {
          version_id: state.headVersionId,
          embedding_config: state.embeddingConfig,
          models: Object.fromEntries(models.map((m) => [m.type, m.id])),
          applied_models: applied,
        },
      });
    });
  }
}
