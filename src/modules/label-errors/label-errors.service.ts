import type { Db } from '../../adapters/db/database.js';
import { LABEL_ERROR_DEFAULTS } from '../../core/label-errors.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { LabelErrorTarget, LabelErrorsRepo } from './label-errors.repo.js';

/** A mislabel needs a labelled neighbour: two labelled media (or objects) at least. */
const MIN_LABELLED = 2;

/** Label errors: a LABEL_ERRORS task scores the head's labelled media (docs/curation.md). */
export class LabelErrorsService {
  constructor(
    private readonly db: Db,
    private readonly repo: LabelErrorsRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
  ) {}

  async start(principal: Principal, datasetId: string, options: { k?: number; threshold?: number; target?: LabelErrorTarget }): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    const k = options.k ?? LABEL_ERROR_DEFAULTS.k;
    const threshold = options.threshold ?? LABEL_ERROR_DEFAULTS.threshold;
    const target = options.target ?? 'media';
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'find_label_errors');
      if (!state.headVersionId || !(await this.repo.versionIndex(state.headVersionId))) throw errors.notIndexed(datasetId);
      if (target !== 'objects' && (await this.repo.countLabelled(trx, state.headVersionId, MIN_LABELLED)) < MIN_LABELLED) throw errors.noLabels(MIN_LABELLED);
      if (target !== 'media') {
        const objects = await this.repo.countObjects(trx, state.headVersionId, MIN_LABELLED);
        if (objects < MIN_LABELLED) throw errors.noObjectLabels(MIN_LABELLED, objects);
      }
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'find_label_errors',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: label errors of ${target === 'all' ? 'media and objects' : target} with k=${k}, threshold ${threshold}`,
        config: { k, threshold, target },
      });
      return started.taskId;
    });
  }
}
