import { type Kysely, sql } from 'kysely';

/**
 * Cluster summaries per facet: what an Explore page filtered by one tag or one label shows of each cluster, counted
 * over the cluster's members that carry it (a tag filter matching a tenth of 1M media grouped 100k matches into their
 * clusters per request: 0.8 s a page). `facet_summaries` holds, per version, facet ('tag' or 'label'), value, level
 * and cluster, the matching members' counts and the first of them in Explore's order; `facet_totals` the clusters
 * with matches per level. Only facets matching at least `version_facets.floor` media are summarised (a rarer one
 * is grouped from its few rows fast enough), and a head's facets are written after it becomes the head (a job), so
 * `version_facets` marks a version whose facets are written. Whole per version: an edit changes what they count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table version_facets (
      version_id uuid primary key references versions (id) on delete cascade,
      floor int not null
    );
    create table facet_totals (
      version_id uuid not null,
      facet text not null,
      value text not null,
      n_clusters int[] not null,
      primary key (version_id, facet, value)
    );
    create table facet_summaries (
      version_id uuid not null,
      facet text not null,
      value text not null,
      level smallint not null,
      cluster_id uuid not null,
      size int not null,
      n_images int not null,
      n_videos int not null,
      n_objects int not null,
      best_uniqueness real,
      previews uuid[] not null
    );
    create index facet_summaries_page_idx on facet_summaries (version_id, facet, value, level, size desc, cluster_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table facet_summaries; drop table facet_totals; drop table version_facets;`.execute(db);
}
