import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { SUMMARY_PREVIEWS, summaryState } from '../versions/cluster-summaries.js';
import type { ExploreRow } from './explore-rows.js';
import { versionIssuesOf } from './quality-issues.js';

/**
 * The first `limit` clusters of a version at `level` by size, from its own summaries and its base's it does not hold.
 * Each side is read in the page index's order and cut at `limit`, so a delta reads the page, not its base's every
 * cluster (a hash anti-join over them all: 10k summaries sorted per page at 100k media).
 */
function firstClusters(versionId: string, baseId: string | null, level: number, limit: number): RawBuilder<unknown> {
  const own = sql`(select s.* from cluster_summaries s where s.version_id = ${versionId}::uuid and s.level = ${level}::int2 and s.size > 0
    order by s.size desc, s.cluster_id limit ${limit})`;
  if (!baseId) return own;
  return sql`(${own} union all (select b.* from cluster_summaries b where b.version_id = ${baseId}::uuid and b.level = ${level}::int2 and b.size > 0
    and not exists (select 1 from cluster_summaries o where o.version_id = ${versionId}::uuid and o.level = ${level}::int2 and o.cluster_id = b.cluster_id)
    order by b.size desc, b.cluster_id limit ${limit}))`;
}

/**
 * One unfiltered, size-sorted Explore page read from the version's cluster summaries (cluster-summaries.ts): the
 * page's clusters by the summaries' page index, then their first `previewsLimit` members by key. Undefined when the
 * version has no summaries (written before them, or not yet a head), or when the page asks for more members than a
 * summary keeps of one of its clusters. Cost: the page, whatever the dataset's size.
 */
export async function summaryPage(
  db: Db,
  q: { versionId: string; level: number; page: number; previewsLimit: number; clustersPerPage: number },
): Promise<{ rows: ExploreRow[]; totalClusters: number } | undefined> {
  const summary = await summaryState(db, q.versionId);
  if (!summary) return undefined;
  const offset = q.page * q.clustersPerPage;
  const clusters = sql`select s.cluster_id, s.size, s.n_images, s.n_videos, s.n_objects, s.previews
    from ${firstClusters(q.versionId, summary.base_id, q.level, offset + q.clustersPerPage)} s
    order by s.size desc, s.cluster_id
    limit ${q.clustersPerPage} offset ${offset}`;
  const rows = await summarisedRows(db, q.versionId, clusters, q.previewsLimit);
  return rows && { rows, totalClusters: summary.n_clusters[q.level] ?? 0 };
}

/**
 * The rows of a page whose clusters `clusters` reads from summaries (cluster_id, size, n_images, n_videos, n_objects
 * and previews; a page is ordered by size, largest first, then cluster_id): each cluster's first `previewsLimit`
 * members, read by key. Undefined when the page asks for more members than a summary keeps of one of its clusters.
 */
export async function summarisedRows(db: Db, versionId: string, clusters: RawBuilder<unknown>, previewsLimit: number): Promise<ExploreRow[] | undefined> {
  const rowsBase = await db.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  // Each lookup is a probe by key (`limit 1` keeps the planner from flattening it into a join over the whole version):
  // the version's own row first, else its base's; version_media found the base's through the media_id index.
  const ownRow = sql`select r.* from version_rows r where r.version_id = ${versionId}::uuid and r.media_id = x.media_id`;
  const row = rowsBase
    ? sql`(${ownRow} union all select b.* from version_rows b where b.version_id = ${rowsBase.base_id}::uuid and b.media_id = x.media_id limit 1)`
    : sql`(${ownRow} limit 1)`;
  const result = await sql<ExploreRow>`
    with page as materialized (${clusters})
    select p.cluster_id, p.size as cluster_size, p.n_images, p.n_videos, p.n_objects as cluster_objects,
      w.media_id, m.media_type, m.file_name, m.width, m.height, m.thumb_hash, m.parent_media_id, m.frame_timestamp,
      w.uniqueness_score, w.is_outlier, w.duplicate_group, m.quality_flags, coalesce(a.tags, '{}') as tags, a.label, null::real as relevance, w.caption,
      coalesce(jsonb_array_length(w.objects), 0) as n_objects, ${versionIssuesOf(sql`x.media_id`, sql`${versionId}::uuid`)} as version_issues,
      array(select distinct o ->> 'label' from jsonb_array_elements(coalesce(w.objects, '[]')) o order by 1) as object_labels
    from page p
    cross join lateral unnest(p.previews[1:${previewsLimit}::int]) with ordinality as x(media_id, position)
    cross join lateral ${row} w
    cross join lateral (select * from media where id = x.media_id limit 1) m
    left join lateral (select v.tags, v.label from version_annotations v where v.version_id = ${versionId}::uuid and v.media_id = x.media_id limit 1) a on true
    order by p.size desc, p.cluster_id, x.position`.execute(db);
  // A summary keeps SUMMARY_PREVIEWS members: more are the rows' to rank, unless every cluster of the page is that small.
  if (previewsLimit > SUMMARY_PREVIEWS && result.rows.some((r) => r.cluster_size > SUMMARY_PREVIEWS)) return undefined;
  return result.rows;
}
