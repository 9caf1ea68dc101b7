import type { SweepStatus } from '../modules/system/system.routes.js';
import type { SweepName } from './sweeps.js';

/** How each sweep of this process has fared since it started: read by /ready and /metrics. */
export class SweepHealth {
  private readonly states = new Map<string, SweepStatus>();

  constructor(names: readonly SweepName[]) {
    for (const name of names) this.states.set(name, { runs: 0, failures: 0, last_error_at: null });
  }

  record(name: SweepName, failed: boolean): void {
    const state = this.states.get(name) ?? { runs: 0, failures: 0, last_error_at: null };
    state.runs += 1;
    if (failed) {
      state.failures += 1;
      state.last_error_at = new Date().toISOString();
    }
    this.states.set(name, state);
  }

  snapshot(): Record<string, SweepStatus> {
    return Object.fromEntries([...this.states].map(([name, state]) => [name, { ...state }]));
  }
}
