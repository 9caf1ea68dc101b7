import { type Kysely, sql } from 'kysely';

/**
 * What an unfiltered Explore page shows of each cluster, computed when a version becomes a head instead of by
 * grouping every row of the version per request (1M media: 4.5–5 s a page). `cluster_summaries` holds one row per
 * cluster and level: its counts and its best members (the preview order); a page reads 100 of them by the
 * page index. Like version rows they are copied on write: a delta version holds the summaries of the clusters
 * its change touched (size 0 for a cluster it emptied) and inherits the others from `version_summaries.base_id`,
 * its rows' base, whose summaries are whole. `n_clusters`, `n_media` and `n_images` count, per level,
 * the clusters with members and the media in them, for totals and unfiltered counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table version_summaries (
      version_id uuid primary key references versions (id) on delete cascade,
      base_id uuid,
      n_clusters int[] not null,
      n_media int[] not null,
      n_images int[] not null
    );
    create table cluster_summaries (
      version_id uuid not null,
      level smallint not null,
      cluster_id uuid not null,
      size int not null,
      n_images int not null,
      n_videos int not null,
      n_objects int not null,
      best_uniqueness real,
      previews uuid[] not null,
      primary key (version_id, level, cluster_id)
    );
    create index cluster_summaries_page_idx on cluster_summaries (version_id, level, size desc, cluster_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table cluster_summaries; drop table version_summaries;`.execute(db);
}
