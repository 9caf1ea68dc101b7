import type { Logger } from 'pino';
import type { Db } from '../../adapters/db/database.js';
import { AppError } from '../../core/errors.js';
import type { ExploreSelection, ExploreService } from '../explore/explore.service.js';
import type { AlertsRepo, PendingBatch } from './alerts.repo.js';
import type { NewNotification, NotificationsRepo } from './notifications.repo.js';

/**
 * Evaluates the monitored, alerting views of a dataset against one processed media batch's new media
 * and writes one notification per entitled user of each view with results. The batch is claimed, its
 * notifications written and it is marked evaluated in one transaction; the unique (view, batch, user)
 * makes a repeat harmless even if the mark were lost.
 */
export class AlertsService {
  constructor(
    private readonly db: Db,
    private readonly repo: AlertsRepo,
    private readonly notifications: NotificationsRepo,
    private readonly explore: ExploreService,
    private readonly log: Logger,
  ) {}

  /**
   * Evaluates the oldest pending batch not in `skip`: null when none is left; `done: false` when its
   * evaluation failed (it stays pending, and the next sweep tries again).
   */
  evaluateNext(skip: string[] = []): Promise<{ batchId: string; done: boolean } | null> {
    return this.db.transaction().execute(async (trx) => {
      const batch = await this.repo.claimPending(trx, skip);
      if (!batch) return null;
      let rows: NewNotification[];
      try {
        rows = await this.alertsFor(batch);
      } catch (err) {
        this.log.warn({ err, batch_id: batch.id }, 'alert evaluation failed; the next sweep retries it');
        return { batchId: batch.id, done: false };
      }
      const written = await this.notifications.insert(trx, rows);
      await this.repo.markEvaluated(trx, batch.id);
      if (written > 0) this.log.info({ batch_id: batch.id, dataset_id: batch.dataset_id, notifications: written }, 'media batch alerted');
      return { batchId: batch.id, done: true };
    });
  }

  private async alertsFor(batch: PendingBatch): Promise<NewNotification[]> {
    const views = await this.repo.monitoredViews(batch.dataset_id);
    if (views.length === 0 || !batch.version_id) return [];
    const media = await this.repo.batchMedia(batch.dataset_id, batch.trans_id);
    const rows: NewNotification[] = [];
    for (const view of views) {
      let resultCount: number;
      try {
        resultCount = (await this.explore.count(batch.dataset_id, batch.version_id, view.query as unknown as ExploreSelection, media)).n_media;
      } catch (err) {
        // A view that no longer evaluates (its anchor media is gone) cannot alert; other errors retry the batch.
        if (!(err instanceof AppError)) throw err;
        this.log.warn({ view_id: view.id, batch_id: batch.id, detail: err.detail }, 'saved view skipped: it does not evaluate');
        continue;
      }
      if (resultCount === 0) continue;
      for (const userId of await this.repo.entitledUsers(view.id, batch.dataset_id)) {
        rows.push({
          user_id: userId,
          dataset_id: batch.dataset_id,
          entity_type: 'saved_view',
          entity_id: view.id,
          batch_id: batch.id,
          title: `New results in "${view.name}"`,
          message: `${resultCount} new media in ${batch.dataset_name} match the saved view "${view.name}"`,
          metadata: { batch_id: batch.id, is_alert: true, view_name: view.name, dataset_name: batch.dataset_name, result_count: resultCount },
        });
      }
    }
    return rows;
  }
}
