import type { Db } from '../../adapters/db/database.js';
import { TAG_MAX_LENGTH, cleanAnnotation } from '../../core/custom-fields.js';
import { errors } from '../../core/errors.js';
import { authorize } from '../../core/permissions.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle, DatasetState } from '../lifecycle/dataset-lifecycle.js';
import { DEFAULT_LEAKAGE_THRESHOLD, type LeakageConfig, MAX_SPLIT_VALUES, PAIRS_PAGE_SIZE, comparedPairs } from './leakage-plan.js';
import type { LeakageRepo, PairRow, StoredRun } from './leakage.repo.js';

export interface LeakageRequest {
  other_dataset_id?: string;
  split_field?: string;
  split_values?: string[];
  threshold?: number;
  tag?: string;
}

export interface PairsPage {
  run: StoredRun;
  pairs: PairRow[];
  total: number;
  page: number;
}

/** Leakage between two datasets or two splits of one: checked and started here, run by the LEAKAGE job, read back here. */
export class LeakageService {
  constructor(
    private readonly db: Db,
    private readonly repo: LeakageRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
  ) {}

  /** Starts a LEAKAGE task on `datasetId` (read access, or change access with a tag); returns its id. */
  async start(principal: Principal, datasetId: string, request: LeakageRequest): Promise<string> {
    const { other_dataset_id: otherId, split_field: field } = request;
    if ((otherId === undefined) === (field === undefined)) throw errors.validation('Give exactly one of other_dataset_id (another dataset) or split_field (a custom field whose values are splits)');
    if (request.split_values && !field) throw errors.validation('split_values names two values of split_field; give split_field too');
    const tag = request.tag === undefined ? null : cleanAnnotation(request.tag, TAG_MAX_LENGTH);
    if (request.tag !== undefined && tag === null) throw errors.validation(`tag must be 1 to ${TAG_MAX_LENGTH} characters`);
    const threshold = request.threshold ?? DEFAULT_LEAKAGE_THRESHOLD;
    const dataset = await this.datasets.authorize(principal, datasetId, tag ? 'write' : 'read');
    let other: Awaited<ReturnType<DatasetsService['authorize']>> | null = null;
    if (otherId) {
      if (otherId.toLowerCase() === datasetId.toLowerCase()) throw errors.validation('other_dataset_id is this dataset; to compare its splits give split_field instead');
      other = await this.datasets.authorize(principal, otherId, 'read');
    }
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'find_leakage');
      const ownIndex = await this.indexOf(state);
      const config: LeakageConfig = { threshold, tag, sides: [], pairs: [] };
      if (other) {
        const otherState = await this.lifecycle.state(trx, other.id, { lock: false });
        const otherIndex = await this.indexOf(otherState);
        if (otherIndex.model !== ownIndex.model || otherIndex.dimensions !== ownIndex.dimensions) {
          throw errors.embeddingModelsDiffer(datasetId, other.id, ownIndex.model, otherIndex.model);
        }
        config.other_dataset_id = other.id;
        config.tag_other = tag !== null && authorize(other.role, 'write') === 'allowed';
        config.sides = [dataset.display_name, other.display_name];
        config.pairs = [[0, 1]];
      } else {
        config.split_field = field!;
        config.sides = await this.splits(ownIndex.versionId, field!, request.split_values);
        config.pairs = comparedPairs(config.sides.length);
      }
      const what = other ? `this dataset and ${other.display_name}` : `the ${field} splits ${config.sides.join(', ')}`;
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'find_leakage',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: near-duplicates between ${what} at ${threshold}`,
        config: config as unknown as Record<string, unknown>,
      });
      return started.taskId;
    });
  }

  /** A completed run's summary; 404 for no task of the dataset, 422 for one of another type, 409 while the task has not completed. */
  async result(principal: Principal, datasetId: string, taskId: string): Promise<StoredRun> {
    await this.datasets.authorize(principal, datasetId, 'read');
    const run = await this.repo.run(datasetId, taskId);
    if (!run) {
      const task = await this.repo.task(datasetId, taskId);
      if (!task) throw errors.leakageRunNotFound();
      if (task.task_type !== 'LEAKAGE') throw errors.notLeakageTask(taskId, task.task_type);
      throw errors.leakageNotFinished(taskId, task.status);
    }
    // The pairs show the other dataset's media: only to those who may still see it.
    if (run.other_dataset_id) await this.datasets.authorize(principal, run.other_dataset_id, 'read');
    return run;
  }

  async pairs(principal: Principal, datasetId: string, taskId: string, page: number, comparison: number | undefined): Promise<PairsPage> {
    const run = await this.result(principal, datasetId, taskId);
    if (comparison !== undefined && comparison >= run.comparisons.length) {
      throw errors.validation(`comparison must be below ${run.comparisons.length}: the run compared ${run.comparisons.length} pair(s) of sides`);
    }
    const total = comparison === undefined ? run.comparisons.reduce((sum, c) => sum + c.n_pairs, 0) : run.comparisons[comparison]!.n_pairs;
    return { run, pairs: await this.repo.pairs(taskId, comparison ?? null, page, PAIRS_PAGE_SIZE), total, page };
  }

  private async indexOf(state: DatasetState) {
    const index = state.headVersionId ? await this.repo.sideIndex(state.headVersionId) : null;
    if (!index) throw errors.notIndexed(state.id);
    return index;
  }

  /** The values to compare: the field's values, most media first, or the two named; 422 for a field that is no split. */
  private async splits(versionId: string, field: string, named: string[] | undefined): Promise<string[]> {
    const types = await this.repo.fieldTypes(versionId);
    if (!(field in types)) {
      const known = Object.keys(types).sort();
      throw errors.validation(`Unknown custom field '${field}'; ${known.length ? `this dataset's fields are ${known.join(', ')}` : 'this dataset has no custom fields'}`);
    }
    const values = (await this.repo.fieldValues(versionId, field)).map((v) => v.value);
    if (named) {
      if (new Set(named).size !== 2) throw errors.validation('split_values must name two different values');
      const unknown = named.filter((v) => !values.includes(v));
      if (unknown.length > 0) throw errors.validation(`split_values: no media has ${field} = ${unknown.map((v) => `'${v}'`).join(' or ')}`);
      return named;
    }
    if (values.length < 2) {
      throw errors.validation(`Field '${field}' has ${values.length === 0 ? 'no values' : `one value only ('${values[0]}')`}; a split field needs at least two`);
    }
    if (values.length > MAX_SPLIT_VALUES) {
      throw errors.validation(`Field '${field}' has ${values.length >= 1000 ? 'more than 1000' : values.length} values; a split field has at most ${MAX_SPLIT_VALUES}, or name two of them in split_values`);
    }
    return values;
  }
}
