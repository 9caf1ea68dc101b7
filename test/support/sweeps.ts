import type { TestServer } from './server.js';
import { waitFor } from './server.js';

/** The sweeps whose passes tests wait for: staging tables, and versions (with their field sets). */
const WATCHED = ['sweep-staging-tables', 'sweep-versions'] as const;

async function runs(server: TestServer): Promise<Record<string, number>> {
  const ready = await server.api(null, 'GET', '/ready');
  const sweeps = (ready.body.sweeps ?? {}) as Record<string, { runs: number }>;
  return Object.fromEntries(WATCHED.map((name) => [name, sweeps[name]?.runs ?? 0]));
}

/**
 * Resolves once every watched sweep has run a whole pass that began after this call, whether or not it found anything
 * to do (as /ready counts them). A pass counted once may have begun before the call, so each must count two more.
 * Tests that check a sweep leaves something alone wait for this instead of sleeping for a few sweep intervals.
 */
export async function sweepPassed(server: TestServer): Promise<void> {
  const before = await runs(server);
  await waitFor(async () => {
    const now = await runs(server);
    return WATCHED.every((name) => now[name]! >= before[name]! + 2) ? true : undefined;
  }, { timeout: 30_000, what: 'a whole garbage sweep' });
}
