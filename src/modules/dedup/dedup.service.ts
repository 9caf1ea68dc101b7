import type { Db } from '../../adapters/db/database.js';
import { type DedupInput, ORDERED_FIELD_TYPES, dedupConfig, dedupRequest, describeDedup, type DedupRequest } from '../../core/dedup.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../versions/versions.repo.js';
import type { DedupGroup, DedupRepo, DedupRule, DedupTotals } from './dedup.repo.js';

/** Groups a dry run answers a page; each lists at most MEMBERS_PER_GROUP members (keeper first), n_members says how many it has. */
export const GROUPS_PER_PAGE = 100;
export const MEMBERS_PER_GROUP = 100;

export interface DedupPlan {
  rule: DedupRequest;
  totals: DedupTotals;
  groups: DedupGroup[];
}

/**
 * The rule checked against a version: its custom field known and orderable (422), a near scope's index there (409).
 * Shared by the routes and the job, which checks again at its commit (the head may have changed meanwhile).
 */
export async function dedupRule(db: Db, versions: Pick<VersionsRepo, 'fieldTypes'>, repo: Pick<DedupRepo, 'indexed'>, datasetId: string, versionId: string, request: DedupRequest): Promise<DedupRule> {
  let fieldType: DedupRule['fieldType'] = null;
  if (request.field !== null) {
    const types = await versions.fieldTypes(db, versionId);
    const type = types[request.field];
    if (!type) throw errors.unknownDedupField(request.field, Object.keys(types).sort());
    if (!ORDERED_FIELD_TYPES.includes(type)) throw errors.unorderedDedupField(request.field, type);
    fieldType = type;
  }
  if (request.scope === 'near' && !(await repo.indexed(versionId))) throw errors.dedupNotIndexed(datasetId);
  return { ...request, fieldType };
}

/** Dedup: the groups a dry run shows, or a DEDUP task that removes (or tags) all members of each group but its keeper. */
export class DedupService {
  constructor(
    private readonly db: Db,
    private readonly repo: DedupRepo,
    private readonly datasets: Pick<DatasetsService, 'authorize'>,
    private readonly lifecycle: DatasetLifecycle,
    private readonly versions: VersionsRepo,
  ) {}

  /** The dry run: the groups of the current version, a page of them, and what the dedup would keep and remove. Nothing changes. */
  async plan(principal: Principal, datasetId: string, input: DedupInput, pageNumber: number): Promise<DedupPlan> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'write');
    const request = dedupRequest(input);
    if (!dataset.head_version_id) throw errors.notIndexed(datasetId);
    const rule = await dedupRule(this.db, this.versions, this.repo, datasetId, dataset.head_version_id, request);
    const { totals, groups } = await this.repo.page(dataset.head_version_id, rule, pageNumber * GROUPS_PER_PAGE, GROUPS_PER_PAGE, MEMBERS_PER_GROUP);
    return { rule: request, totals, groups };
  }

  /** Starts a DEDUP task (the guard's 409 naming a running blocker); it applies to the head as it is when it commits. */
  async start(principal: Principal, datasetId: string, input: DedupInput): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    const request = dedupRequest(input);
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'dedup');
      if (!state.headVersionId) throw errors.notIndexed(datasetId);
      await dedupRule(trx, this.versions, this.repo, datasetId, state.headVersionId, request);
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'dedup',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: dedup (${describeDedup(request)})`,
        config: dedupConfig(request),
      });
      return started.taskId;
    });
  }
}
