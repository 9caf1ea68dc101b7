// npm run chaos: every operation SIGKILLed at random points, its server and separately its PostgreSQL; prints the table.
// CHAOS_SEED replays a run's kill points, CHAOS_ROUNDS sets the kills per target per operation (3), CHAOS_ONLY picks
// operations (comma-separated), CHAOS_KEEP keeps the data directory and the server's log.
import { everyOperationEveryTarget, formatTable, runCampaign } from './lib/campaign.js';

const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
const rounds = Number(process.env.CHAOS_ROUNDS ?? 3);
const only = process.env.CHAOS_ONLY?.split(',').map((s) => s.trim());
console.log(`chaos: seed ${seed}, ${rounds} round(s)`);
const started = Date.now();
const result = await runCampaign({ seed, kills: everyOperationEveryTarget(rounds, only), log: (line) => console.log(line) });
console.log(`\n${formatTable(result)}\n(${Math.round((Date.now() - started) / 1000)} s)`);
process.exit(result.results.some((r) => r.outcome === 'broken') ? 1 : 0);
