import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from '../src/adapters/db/schema.js';
import { loadConfig } from '../src/config.js';
import { refreshClusterSummaries } from '../src/modules/versions/cluster-summaries.js';
import { VersionsRepo } from '../src/modules/versions/versions.repo.js';
import { startLoupe } from '../src/server.js';
import { seedIndexedDataset } from './lib/seed-media.js';

const n = Number(process.env.N ?? 100000);
const loupe = await startLoupe(loadConfig({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'probe-')), PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' }));
const issued = await loupe.container.services.auth.createUser('probe@example.com');
const big = await seedIndexedDataset(loupe, issued.user_id, 'probe', n);
const timings: string[] = [];
let members: { sql: string; parameters: readonly unknown[] } | null = null;
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: loupe.container.database.pool }),
  log: (e) => { if (e.level === 'query' && e.query.sql.includes('with members')) members = e.query; if (e.level === 'query') timings.push(`${e.queryDurationMillis.toFixed(0)} ms: ${e.query.sql.replace(/\s+/g, ' ').slice(0, 160)}`); },
});
const { head_version_id: versionId } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', big).executeTakeFirstOrThrow();
await db.transaction().execute(async (trx) => {
  const delta = await new VersionsRepo(db).fork(trx, big, null, 'delta');
  await sql`insert into version_rows (version_id, media_id, ordinal, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4, uniqueness_score, nn_similarity, is_outlier)
    select ${delta}::uuid, media_id, ordinal, gen_random_uuid(), cluster_l1, cluster_l2, cluster_l3, cluster_l4, uniqueness_score, nn_similarity, is_outlier
    from version_rows where version_id = ${versionId}::uuid order by media_id limit 1000`.execute(trx);
  timings.length = 0;
  await refreshClusterSummaries(trx, delta, versionId);
  console.log(timings.join('\n'));
  if (process.env.EXPLAIN && members) {
    await sql`delete from cluster_summaries where version_id = ${delta}::uuid`.execute(trx);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain analyze ${members.sql}`, [...members.parameters]));
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  throw new Error('rollback');
}).catch(() => undefined);
await loupe.close();
