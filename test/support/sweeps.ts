import type { TestServer } from './server.js';
import { waitFor } from './server.js';

type Step = 'staging' | 'versions' | 'sets';

interface Tracker {
  /** Each call of a step that has ended (resolved or thrown), with the time it began. */
  settled: Array<{ step: Step; startedAt: number }>;
}

const trackers = new WeakMap<TestServer, Tracker>();

/** Wraps the sweep's steps on the server's own repos (the instances the sweep calls) to note when each call ends. */
function track(server: TestServer): Tracker {
  const known = trackers.get(server);
  if (known) return known;
  const tracker: Tracker = { settled: [] };
  const { versionGc, customMetadata } = server.loupe.container.repos;
  const wrap = <A extends unknown[], R>(step: Step, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const startedAt = performance.now();
      try {
        return await call(...args);
      } finally {
        tracker.settled.push({ step, startedAt });
      }
    };
  customMetadata.sweepStaging = wrap('staging', customMetadata.sweepStaging.bind(customMetadata));
  versionGc.sweep = wrap('versions', versionGc.sweep.bind(versionGc));
  versionGc.dropOrphanSets = wrap('sets', versionGc.dropOrphanSets.bind(versionGc));
  trackers.set(server, tracker);
  return tracker;
}

/**
 * Resolves once every step of the garbage sweep (staging tables, versions, field sets) has run whole after this
 * call, whether or not it found anything to do. Tests that check a sweep leaves something alone wait for this
 * instead of sleeping for a few sweep intervals.
 */
export async function sweepPassed(server: TestServer): Promise<void> {
  const tracker = track(server);
  const since = performance.now();
  const steps: Step[] = ['staging', 'versions', 'sets'];
  await waitFor(async () => (steps.every((step) => tracker.settled.some((s) => s.step === step && s.startedAt >= since)) ? true : undefined), {
    timeout: 30_000,
    what: 'a whole garbage sweep',
  });
}
