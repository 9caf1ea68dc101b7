import { type Kysely, sql } from 'kysely';

/**
 * Every change forks the head's version_media rows, and each index is maintained row by row in that
 * copy: the five per-level cluster indexes doubled the fork's cost (bench/snapshots.ts) while no query
 * looks a cluster up by id (Explore groups a version's rows in one scan), so they go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index version_media_l0_idx, version_media_l1_idx, version_media_l2_idx, version_media_l3_idx, version_media_l4_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index version_media_l0_idx on version_media (version_id, cluster_l0);
    create index version_media_l1_idx on version_media (version_id, cluster_l1);
    create index version_media_l2_idx on version_media (version_id, cluster_l2);
    create index version_media_l3_idx on version_media (version_id, cluster_l3);
    create index version_media_l4_idx on version_media (version_id, cluster_l4);
  `.execute(db);
}
