import type { Logger } from 'pino';
import type { AlertsService } from '../modules/notifications/alerts.service.js';
import { CoalescedRunner } from './lib/coalesced.js';

/**
 * Runs alert evaluation in the worker role: a "media batch processed" NOTIFY pokes it at once, and a
 * periodic sweep finds batches committed while no worker listened (media_batches.alerts_evaluated_at is
 * null), so a batch alerts even when its NOTIFY was missed. Pokes during a pass make one more pass.
 */
export class AlertConsumer {
  private timer: NodeJS.Timeout | null = null;
  private readonly runner: CoalescedRunner;

  constructor(
    private readonly alerts: AlertsService,
    private readonly log: Logger,
  ) {
    this.runner = new CoalescedRunner(
      () => this.drain(),
      (err) => this.log.warn({ err }, 'alert sweep failed; it runs again at the next interval'),
    );
  }

  start(sweepIntervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.poke(), sweepIntervalMs);
    this.poke();
  }

  /** Evaluate pending batches now; ignored until started (the API role never starts it). */
  poke(): void {
    if (this.timer) this.runner.trigger();
  }

  /** Stops the sweep and waits for a pass in progress, so the database can close after it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.runner.idle();
  }

  private async drain(): Promise<void> {
    // A batch whose evaluation failed is left for the next sweep rather than retried in a tight loop.
    const failed: string[] = [];
    while (this.timer) {
      const result = await this.alerts.evaluateNext(failed);
      if (!result) return;
      if (!result.done) failed.push(result.batchId);
    }
  }
}
