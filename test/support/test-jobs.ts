import { setTimeout as sleep } from 'node:timers/promises';
import type { JobDefinition } from '../../src/jobs/registry.js';

/**
 * A DATASET_CREATION stand-in the tests register themselves (production has none until the
 * creation pipeline lands). Its config says how to behave: steps, step time, failure, commit time.
 */
export interface TestJobConfig {
  steps?: number;
  stepMs?: number;
  failAtStep?: number;
  commitMs?: number;
}

export const testCreationJob: JobDefinition = {
  type: 'DATASET_CREATION',
  async handler(ctx) {
    const { steps = 5, stepMs = 50, failAtStep, commitMs = 0 } = ctx.config as TestJobConfig;
    for (let step = 1; step <= steps; step++) {
      await sleep(stepMs, undefined, { signal: ctx.signal }).catch(() => ctx.signal.throwIfAborted());
      if (step === failAtStep) throw new Error(`test job failed at step ${step}`);
      await ctx.progress((step / steps) * 100, `step ${step} of ${steps}`);
    }
    await ctx.commit(async () => {
      // The commit phase is not abortable: it ignores the signal on purpose.
      await sleep(commitMs);
    }, `Processed ${steps} steps`);
  },
};
