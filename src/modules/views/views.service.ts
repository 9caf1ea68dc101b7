import { AppError, errors } from '../../core/errors.js';
import { authorize } from '../../core/permissions.js';
import { parseExploreFilters } from '../../core/vql.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { MatchCounts } from '../explore/explore-rows.js';
import type { ExploreSelection, ExploreService } from '../explore/explore.service.js';
import type { ViewChanges, ViewRow, ViewsRepo } from './views.repo.js';
import { VIEW_FILTER_KEYS } from './views.schemas.js';

export interface ViewInput {
  name?: string;
  monitoring_enabled?: boolean;
  alerting_enabled?: boolean;
  notify_emails?: string[];
}

export interface ViewPatch extends ViewInput {
  filters?: Record<string, unknown>;
}

/** A view with what it matches now: null while the dataset has no index, or when the view no longer evaluates (its anchor is gone). */
export interface EvaluatedView extends ViewRow {
  counts: MatchCounts | null;
}

type Dataset = Awaited<ReturnType<DatasetsService['authorize']>>;

/**
 * Saved views: stored Explore queries on a dataset. Anyone who can read the dataset may save views and
 * see all of its views; a view is changed or deleted by its creator or by an editor of the dataset.
 */
export class ViewsService {
  constructor(
    private readonly repo: ViewsRepo,
    private readonly datasets: DatasetsService,
    private readonly explore: ExploreService,
  ) {}

  async create(principal: Principal, datasetId: string, filters: Record<string, unknown>, input: ViewInput): Promise<EvaluatedView> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const name = checkName(input.name);
    const query = normalise(filters);
    const recipients = await this.recipients(datasetId, input.notify_emails ?? []);
    // Counted before saving, so a view that cannot evaluate (an anchor not in the dataset) is refused.
    const counts = dataset.head_version_id ? await this.explore.count(datasetId, dataset.head_version_id, query) : null;
    const id = await this.repo.insert(
      {
        dataset_id: datasetId,
        name,
        query,
        created_by: principal.userId,
        // On by default, as the hosted service's docs create views: a saved view alerts unless told not to.
        monitoring_enabled: input.monitoring_enabled ?? true,
        alerting_enabled: input.alerting_enabled ?? true,
      },
      recipients,
    );
    if (counts) await this.repo.keepCounts(id, dataset.head_version_id!, query, counts);
    return { ...(await this.find(datasetId, id)), counts };
  }

  async list(principal: Principal, datasetId: string): Promise<EvaluatedView[]> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const views = await this.repo.list(datasetId);
    const out: EvaluatedView[] = [];
    const kept = dataset.head_version_id ? await this.repo.keptCounts(views.map((v) => v.id), dataset.head_version_id) : undefined;
    // One at a time: a semantic view ranks texts in process, and a dataset has a handful of views.
    for (const view of views) out.push(await this.evaluate(dataset, view, kept));
    return out;
  }

  async get(principal: Principal, datasetId: string, viewId: string): Promise<EvaluatedView> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    return this.evaluate(dataset, await this.find(datasetId, viewId));
  }

  async update(principal: Principal, datasetId: string, viewId: string, patch: ViewPatch): Promise<EvaluatedView> {
    const dataset = await this.editable(principal, datasetId, viewId);
    const changes: ViewChanges = {};
    if (patch.name !== undefined) changes.name = checkName(patch.name);
    if (patch.monitoring_enabled !== undefined) changes.monitoring_enabled = patch.monitoring_enabled;
    if (patch.alerting_enabled !== undefined) changes.alerting_enabled = patch.alerting_enabled;
    if (patch.filters !== undefined) {
      const query = normalise(patch.filters);
      if (dataset.head_version_id) await this.explore.count(datasetId, dataset.head_version_id, query);
      changes.query = query;
    }
    const recipients = patch.notify_emails === undefined ? undefined : await this.recipients(datasetId, patch.notify_emails);
    await this.repo.update(viewId, changes, recipients);
    return this.evaluate(dataset, await this.find(datasetId, viewId));
  }

  async remove(principal: Principal, datasetId: string, viewId: string): Promise<void> {
    await this.editable(principal, datasetId, viewId);
    await this.repo.remove(viewId);
  }

  /** The Explore query a view stores, for `GET /explore/{id}?view_id=`. */
  async selection(principal: Principal, datasetId: string, viewId: string): Promise<ExploreSelection> {
    await this.datasets.authorize(principal, datasetId, 'read');
    return (await this.find(datasetId, viewId)).query as unknown as ExploreSelection;
  }

  private async find(datasetId: string, viewId: string): Promise<ViewRow> {
    const view = await this.repo.find(datasetId, viewId);
    if (!view) throw errors.viewNotFound();
    return view;
  }

  private async editable(principal: Principal, datasetId: string, viewId: string): Promise<Dataset> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const view = await this.find(datasetId, viewId);
    if (view.created_by !== principal.userId && authorize(dataset.role, 'write') !== 'allowed') throw errors.viewForbidden();
    return dataset;
  }

  /** User ids for the e-mails; every one must be a user who can read the dataset. */
  private async recipients(datasetId: string, emails: string[]): Promise<string[]> {
    // Forms send one comma-separated field; JSON sends an array.
    const listed = emails.flatMap((e) => e.split(',')).map((e) => e.trim()).filter((e) => e !== '');
    const wanted = [...new Map(listed.map((e) => [e.toLowerCase(), e])).values()];
    const found = await this.repo.usersWithAccess(datasetId, wanted);
    const known = new Set(found.map((u) => u.email.toLowerCase()));
    const missing = wanted.find((e) => !known.has(e.toLowerCase()));
    if (missing !== undefined) throw errors.notifyNotEntitled(missing);
    return found.map((u) => u.id);
  }

  /** The view with its counts at the head: kept per head version, as the head's rows never change. */
  private async evaluate(dataset: Dataset, view: ViewRow, kept?: Map<string, MatchCounts>): Promise<EvaluatedView> {
    const head = dataset.head_version_id;
    if (!head) return { ...view, counts: null };
    const known = kept ?? (await this.repo.keptCounts([view.id], head));
    if (known.has(view.id)) return { ...view, counts: known.get(view.id)! };
    try {
      const counts = await this.explore.count(dataset.id, head, view.query as unknown as ExploreSelection);
      await this.repo.keepCounts(view.id, head, view.query, counts);
      return { ...view, counts };
    } catch (err) {
      // Not kept: what refused it (a dataset not ready) may pass at the same head.
      if (err instanceof AppError) return { ...view, counts: null };
      throw err;
    }
  }
}

function checkName(name: string | undefined): string {
  const trimmed = name?.trim();
  if (!trimmed) throw errors.validation('name must not be empty');
  if (trimmed.length > 200) throw errors.validation('name must be at most 200 characters');
  return trimmed;
}

/** The Explore parameters a view keeps: known keys with a value, checked as Explore checks them (422). */
function normalise(filters: Record<string, unknown>): ExploreSelection {
  const query: Record<string, unknown> = { threshold: 0, entity_type: 'IMAGES' };
  for (const key of VIEW_FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    query[key] = typeof value === 'string' ? value.trim() : value;
  }
  const selection = query as unknown as ExploreSelection;
  if (!Number.isInteger(selection.threshold) || selection.threshold < 0 || selection.threshold > 4) throw errors.validation('threshold must be an integer from 0 to 4');
  if (selection.entity_type !== 'IMAGES' && selection.entity_type !== 'OBJECTS') throw errors.validation('entity_type must be IMAGES or OBJECTS');
  if (selection.anchor_type && !selection.anchor_media_id) throw errors.validation('anchor_type needs anchor_media_id');
  if (selection.anchor_type === 'UPLOAD') throw errors.viewUploadAnchor();
  parseExploreFilters(selection);
  return selection;
}
