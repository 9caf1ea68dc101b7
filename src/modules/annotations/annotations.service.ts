import type { Db } from '../../adapters/db/database.js';
import { LABEL_MAX_LENGTH, TAG_MAX_LENGTH, cleanAnnotation } from '../../core/custom-fields.js';
import { errors } from '../../core/errors.js';
import { type ExploreQuery, parseExploreFilters } from '../../core/vql.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../versions/versions.repo.js';
import type { AnnotationChange, AnnotationsRepo, MediaPick } from './annotations.repo.js';

/** Which media an edit names: exactly one of the three. */
export interface MediaSelectionInput {
  media_ids?: string[];
  cluster_ids?: string[];
  query?: ExploreQuery;
}

export interface EditResult {
  /** Media the selection holds in the dataset. */
  matched: number;
  /** Media whose tags or label the edit changed (the others already were so). */
  changed: number;
}

/** Nothing to change: the transaction is rolled back, no version is made. */
class Unchanged extends Error {
  constructor(readonly matched: number) {
    super('unchanged');
  }
}

/** Tags and labels: each edit is a small new version (copy on write of the touched rows) made the head at once. */
export class AnnotationsService {
  constructor(
    private readonly db: Db,
    private readonly repo: AnnotationsRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly versions: VersionsRepo,
  ) {}

  addTags(principal: Principal, datasetId: string, tags: string[], selection: MediaSelectionInput): Promise<EditResult> {
    return this.edit(principal, datasetId, selection, { kind: 'add_tags', tags: cleanList(tags, TAG_MAX_LENGTH, 'tags') });
  }

  removeTags(principal: Principal, datasetId: string, tags: string[], selection: MediaSelectionInput): Promise<EditResult> {
    return this.edit(principal, datasetId, selection, { kind: 'remove_tags', tags: cleanList(tags, TAG_MAX_LENGTH, 'tags') });
  }

  /** `null` removes the label. */
  setLabel(principal: Principal, datasetId: string, label: string | null, selection: MediaSelectionInput): Promise<EditResult> {
    const clean = label === null ? null : cleanAnnotation(label, LABEL_MAX_LENGTH);
    if (label !== null && clean === null) throw errors.validation(`label must be 1 to ${LABEL_MAX_LENGTH} characters, or null to remove it`);
    return this.edit(principal, datasetId, selection, { kind: 'set_label', label: clean });
  }

  /** Labels detected objects (the enrichment's class stays as detected_label); `null` gives them their detected class back. */
  setObjectLabel(principal: Principal, datasetId: string, objectIds: string[], label: string | null): Promise<EditResult> {
    const clean = label === null ? null : cleanAnnotation(label, LABEL_MAX_LENGTH);
    if (label !== null && clean === null) throw errors.validation(`label must be 1 to ${LABEL_MAX_LENGTH} characters, or null to restore the detected class`);
    const ids = [...new Set(objectIds.map((id) => id.toLowerCase()))];
    return this.edit(principal, datasetId, { kind: 'objects', ids }, { kind: 'set_object_label', objectIds: ids, label: clean });
  }

  async tags(principal: Principal, datasetId: string) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    return { tags: dataset.head_version_id ? await this.repo.tagCounts(dataset.head_version_id) : [] };
  }

  async labels(principal: Principal, datasetId: string) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    return dataset.head_version_id ? this.repo.labelCounts(dataset.head_version_id) : { labels: [], unlabelled: 0 };
  }

  /** The dry run: what a propagation at `level` would label now (clusters, media, ambiguous clusters left alone). */
  async propagationPlan(principal: Principal, datasetId: string, level: number) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'write');
    if (!dataset.head_version_id) throw errors.notIndexed(datasetId);
    const headId = dataset.head_version_id;
    return this.db.transaction().execute((trx) => this.repo.planPropagation(trx, headId, level));
  }

  /** Starts a LABEL_PROPAGATION task; it applies to the head as it is when it commits. */
  async startPropagation(principal: Principal, datasetId: string, level: number): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.check(trx, datasetId, 'propagate_labels');
      if (!state.headVersionId) throw errors.notIndexed(datasetId);
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'propagate_labels',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: label propagation at threshold ${level}`,
        config: { threshold: level },
      });
      return started.taskId;
    });
  }

  /**
   * One transaction under the dataset row lock: the guard (409 during a restore), a delta fork of the head,
   * the touched rows rewritten in one statement, the head swapped. A snapshot taken before keeps the old values.
   */
  private async edit(principal: Principal, datasetId: string, selection: MediaSelectionInput | MediaPick, change: AnnotationChange): Promise<EditResult> {
    await this.datasets.authorize(principal, datasetId, 'write');
    const pick = 'kind' in selection ? selection : toPick(selection);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const state = await this.lifecycle.check(trx, datasetId, 'edit_annotations');
        if (!state.headVersionId) throw errors.notIndexed(datasetId);
        await this.requireKnown(trx, state.headVersionId, pick);
        const matched = await this.repo.countPicked(trx, state.headVersionId, pick);
        // Tags and labels are written with the carried annotations; an object's label is on the wide row.
        const versionId = await this.versions.fork(trx, datasetId, null, 'delta', change.kind === 'set_object_label' ? 'carried' : 'written by the caller');
        const changed = await this.repo.apply(trx, state.headVersionId, versionId, pick, change);
        if (changed === 0) throw new Unchanged(matched);
        await this.versions.swapHead(trx, datasetId, versionId, await this.repo.counts(trx, datasetId));
        return { matched, changed };
      });
    } catch (err) {
      if (err instanceof Unchanged) return { matched: err.matched, changed: 0 };
      throw err;
    }
  }

  private async requireKnown(trx: Db, versionId: string, pick: MediaPick): Promise<void> {
    if (pick.kind === 'ids') {
      const unknown = await this.repo.unknownMedia(trx, versionId, pick.ids);
      if (unknown.length > 0) throw errors.unknownMediaIds(unknown);
    } else if (pick.kind === 'clusters') {
      const unknown = await this.repo.unknownClusters(trx, versionId, pick.ids);
      if (unknown.length > 0) throw errors.unknownClusterIds(unknown);
    } else if (pick.kind === 'objects') {
      const unknown = await this.repo.unknownObjects(trx, versionId, pick.ids);
      if (unknown.length > 0) throw errors.unknownObjectIds(unknown);
    }
  }
}

/** The selection as the repo takes it; 422 unless exactly one kind is given (and a query only filters). */
export function toPick(selection: MediaSelectionInput): MediaPick {
  const given = (['media_ids', 'cluster_ids', 'query'] as const).filter((k) => selection[k] !== undefined);
  if (given.length !== 1) throw errors.validation('Select the media with exactly one of media_ids, cluster_ids or query');
  if (selection.media_ids) {
    if (selection.media_ids.length === 0) throw errors.emptySelection();
    return { kind: 'ids', ids: [...new Set(selection.media_ids.map((id) => id.toLowerCase()))] };
  }
  if (selection.cluster_ids) {
    if (selection.cluster_ids.length === 0) throw errors.emptySelection();
    return { kind: 'clusters', ids: selection.cluster_ids };
  }
  const query = selection.query!;
  // A body may carry vql as the JSON array itself rather than as its text.
  const filters = parseExploreFilters(Array.isArray(query.vql) ? { ...query, vql: JSON.stringify(query.vql) } : query);
  if (filters.text.some((t) => t.op === 'semantic')) throw errors.validation('query: semantic text search ranks media and cannot select them for an edit; use fts');
  return { kind: 'query', filters };
}

function cleanList(values: string[], max: number, name: string): string[] {
  const clean = values.map((v) => cleanAnnotation(v, max));
  if (clean.length === 0 || clean.some((v) => v === null)) throw errors.validation(`${name} must be a non-empty list of strings of 1 to ${max} characters`);
  return [...new Set(clean as string[])];
}
