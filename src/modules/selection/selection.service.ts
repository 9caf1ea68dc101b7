import type { Db } from '../../adapters/db/database.js';
import { TAG_MAX_LENGTH, cleanAnnotation } from '../../core/custom-fields.js';
import { errors } from '../../core/errors.js';
import { DEFAULT_SELECTION_TAG, SELECTION_STRATEGIES, type SelectionStrategy, selectionSize } from '../../core/selection.js';
import type { ExploreFilters } from '../../core/vql.js';
import { toPick } from '../annotations/annotations.service.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import { modelKey } from '../indexing/version-indexer.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../versions/versions.repo.js';
import type { SelectionRepo } from './selection.repo.js';

export interface SelectRequest {
  n?: number;
  fraction?: number;
  strategy: string;
  field?: string;
  order?: 'asc' | 'desc';
  threshold?: number;
  query?: Record<string, unknown>;
  exclude_tags?: string[];
  action?: 'tag' | 'clone';
  tag?: string;
  name?: string;
}

/** Subsets for a labelling budget (docs/curation.md, Diverse subsets): checked here, chosen by a SELECTION task. */
export class SelectionService {
  constructor(
    private readonly db: Db,
    private readonly repo: SelectionRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly versions: VersionsRepo,
  ) {}

  /** Checks the request whole (422 naming what is wrong), the guard (409) and the index (409), then starts the task. */
  async start(principal: Principal, datasetId: string, body: SelectRequest): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    if (!(SELECTION_STRATEGIES as readonly string[]).includes(body.strategy)) {
      throw errors.validation(`Unknown strategy '${body.strategy}': use one of ${SELECTION_STRATEGIES.join(', ')}`);
    }
    const strategy = body.strategy as SelectionStrategy;
    if (strategy === 'uncertain' && !body.field) throw errors.validation('strategy uncertain needs field: a numeric custom field');
    if (strategy !== 'uncertain' && (body.field !== undefined || body.order !== undefined)) throw errors.validation('field and order apply to strategy uncertain only');
    if (strategy !== 'representative' && body.threshold !== undefined) throw errors.validation('threshold applies to strategy representative only');
    const action = body.action ?? 'tag';
    const name = body.name?.trim();
    if (action === 'clone' && !name) throw errors.validation('action clone needs name: the new dataset’s name');
    if (action === 'tag' && body.name !== undefined) throw errors.validation('name applies to action clone only');
    if (action === 'clone' && body.tag !== undefined) throw errors.validation('tag applies to action tag only');
    const tag = body.tag === undefined ? DEFAULT_SELECTION_TAG : cleanAnnotation(body.tag, TAG_MAX_LENGTH);
    if (tag === null) throw errors.validation(`tag must be 1 to ${TAG_MAX_LENGTH} characters`);
    const excludeTags = (body.exclude_tags ?? []).map((t) => cleanAnnotation(t, TAG_MAX_LENGTH)) as string[];
    if (excludeTags.some((t) => t === null)) throw errors.validation(`exclude_tags must hold tags of 1 to ${TAG_MAX_LENGTH} characters`);
    const filters: ExploreFilters | null = body.query ? (toPick({ query: body.query }) as { filters: ExploreFilters }).filters : null;
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'select_media');
      if (!state.headVersionId || !state.embeddingConfig) throw errors.notIndexed(datasetId);
      if (strategy === 'uncertain') {
        const type = (await this.versions.fieldTypes(trx, state.headVersionId))[body.field!];
        if (!type) throw errors.validation(`Unknown custom field '${body.field}'`);
        if (type !== 'number') throw errors.validation(`Custom field '${body.field}' is ${type}, not numeric: uncertain needs a number field`);
      }
      const available = await this.repo.countPool(state.headVersionId, filters, excludeTags, strategy === 'uncertain' ? null : modelKey(state.embeddingConfig));
      const n = selectionSize(body, available);
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'select_media',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: ${strategy} selection of ${n} media`,
        config: {
          strategy,
          n,
          action,
          ...(action === 'tag' ? { tag } : { name }),
          ...(strategy === 'uncertain' ? { field: body.field, order: body.order ?? 'desc' } : {}),
          ...(strategy === 'representative' ? { threshold: body.threshold ?? 0 } : {}),
          ...(body.query ? { query: body.query } : {}),
          ...(excludeTags.length > 0 ? { exclude_tags: excludeTags } : {}),
        },
      });
      return started.taskId;
    });
  }
}
