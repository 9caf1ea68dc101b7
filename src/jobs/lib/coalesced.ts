/**
 * Runs `pass` one at a time: a trigger while a pass runs asks for exactly one more pass after it, however
 * many triggers came, so bursts of events cost at most two passes. A failed pass is reported, not thrown.
 */
export class CoalescedRunner {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  trigger(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.trigger();
        }
      });
  }

  /** Resolves when no pass runs (the one in progress, if any, has ended). */
  async idle(): Promise<void> {
    await this.running;
  }
}
