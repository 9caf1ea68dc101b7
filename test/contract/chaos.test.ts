import { describe, expect, it } from 'vitest';
import { type Kill, formatTable, runCampaign } from '../chaos/lib/campaign.js';
import { OPERATIONS } from '../chaos/lib/operations.js';

/**
 * The short fault-injection run (npm run chaos is the long one): every operation cut once by a SIGKILL, the server for
 * half of them and its PostgreSQL for the other half, then the invariants: each dataset exactly before or after, every
 * original's bytes as sent, every task ended, the server answering.
 */
const names = OPERATIONS.map((o) => o.name);
const serverKilled = ['creation', 'add_media_archive', 'reindex', 'clone', 'enrichment', 'add_media_files', 'edit_tags'];
const kills: Kill[] = [
  { target: 'server', operations: serverKilled },
  { target: 'postgres', operations: names.filter((n) => !serverKilled.includes(n)) },
];

describe('chaos: one SIGKILL per operation', () => {
  it('leaves every dataset before or after, every original intact and every task ended', async () => {
    const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
    const result = await runCampaign({ seed, kills, settleMs: 60_000, log: process.env.CHAOS_LOG ? (line) => console.log(line) : undefined });
    console.log(formatTable(result));
    expect(result.results).toHaveLength(names.length);
    expect(result.results.filter((r) => r.outcome === 'broken')).toEqual([]);
  }, 360_000);
});
