import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import { type ExploreFilters, isEmptyFilters } from '../../core/vql.js';
import { summaryState } from '../versions/cluster-summaries.js';
import { clusterColumn } from './cluster-column.js';
import { MEDIA_TEXT, filtersSql, readsMedia, tsQuery, wideRows } from './explore-filters.js';
import { facetPage, singleFacet } from './facet-page.js';
import { versionIssuesOf } from './quality-issues.js';
import { summaryPage } from './summary-page.js';
import type { Candidates, ExplorePageQuery, ExploreRow } from './explore-rows.js';

/** A filtered, searched or re-sorted page of Explore: the version's matching rows grouped by cluster (part of the Explore repo). */

export const CLUSTERS_PER_PAGE = 100;

/** Keeps only the candidates (as `c`, with their scores) when something outside SQL picked them. */
export function candidatesJoin(candidates: Candidates | null): RawBuilder<unknown> {
  return candidates
    ? sql`join unnest(${candidates.mediaIds}::uuid[], ${candidates.scores}::real[]) as c(media_id, score) on c.media_id = vm.media_id`
    : sql``;
}

/**
 * The candidates' ids as an index condition on the version's rows, one array for every arm: joined to the candidates
 * alone, the rows of a 1M-media version were read whole and hashed (≈ 1 s a similarity page).
 */
export function candidatesWhere(candidates: Candidates | null): RawBuilder<boolean> {
  return candidates ? sql<boolean>`vm.media_id = any(${candidates.mediaIds}::uuid[])` : sql<boolean>`true`;
}

const PROBE_MEDIA = sql`cross join lateral (select * from media where id = vm.media_id limit 1) m`;

/** Whether every media clustered at `level` in the version is an image (no video frames), as its summaries count them. */
async function onlyImages(db: Db, versionId: string, level: number): Promise<boolean> {
  const summary = await summaryState(db, versionId);
  return summary !== undefined && summary.n_media[level] === summary.n_images[level];
}

/** Versions up to this many clustered media read their media by key: see mediaJoin. */
const SMALL_VERSION = 20_000;

/**
 * `media m` for the version's rows `vm`. The planner, misled by version_media's inherited arm (it expects a base's
 * rows for any version once one delta exists), hashed every media row of the install for a 1,000-media version
 * (100k other media: 2.1–2.6× its time alone); a version known to be small probes media by key instead.
 */
export async function mediaJoin(db: Db, versionId: string, level: number, filters: ExploreFilters): Promise<RawBuilder<unknown>> {
  if (!isEmptyFilters(filters)) return PROBE_MEDIA;
  const summary = await summaryState(db, versionId);
  const small = summary !== undefined && summary.n_media[level]! <= SMALL_VERSION;
  return small ? PROBE_MEDIA : sql`join media m on m.id = vm.media_id`;
}

/**
 * The version's rows as `vm`, like version_media but for one version named in each arm and without its annotations
 * and custom fields: through the view PostgreSQL joined every field row of the version (1M at 1M media) before any
 * filter could apply. The filters read annotations in their own rows (filtersSql with the version), and a page joins
 * the tags and labels of the members it shows.
 */
export function versionRows(versionId: string): RawBuilder<unknown> {
  return sql`${wideRows(versionId)} vm`;
}

/** One page of clusters (largest first unless sorted otherwise) with up to `previewsLimit` members each, best first. */
export async function clusterPage(db: Db, q: ExplorePageQuery): Promise<{ rows: ExploreRow[]; totalClusters: number }> {
  if (!q.candidates && q.sort === 'size' && isEmptyFilters(q.filters)) {
    const summarised = await summaryPage(db, { ...q, clustersPerPage: CLUSTERS_PER_PAGE });
    if (summarised) return summarised;
  }
  const facet = !q.candidates && q.sort === 'size' ? singleFacet(q.filters) : undefined;
  if (facet) {
    const summarised = await facetPage(db, { ...q, ...facet, clustersPerPage: CLUSTERS_PER_PAGE });
    if (summarised) return summarised;
  }
  const cluster = clusterColumn(q.level);
  const relevance = q.candidates ? sql`c.score` : sql`null::real`;
  const labels = sql`case when vm.objects is null then '{}'::text[] else array(select distinct o ->> 'label' from jsonb_array_elements(vm.objects) o order by 1) end`;
  const where = sql`vm.version_id = ${q.versionId}::uuid and ${cluster} is not null and ${candidatesWhere(q.candidates)} and ${filtersSql(q.filters, q.versionId)}`;
  if (!readsMedia(q.filters) && (await onlyImages(db, q.versionId, q.level))) {
    // All images, and filters on the rows alone: the clusters are grouped and ordered from the matching rows, and only
    // the members of the page's clusters read their media (a probe by key each, ≈ 5 µs: a tenth of 1M media matching,
    // 1.06 s a page when every match read its media).
    return groupedPage(db, q, {
      matched: sql`select ${cluster} as cluster_id, vm.media_id, vm.uniqueness_score, vm.is_outlier, vm.duplicate_group, ${relevance} as relevance,
          vm.caption, coalesce(jsonb_array_length(vm.objects), 0) as n_objects, ${labels} as object_labels
        from ${versionRows(q.versionId)} ${candidatesJoin(q.candidates)} where ${where}`,
      counts: sql`count(*)::int as n_images, 0 as n_videos`,
      members: sql`select mt.cluster_id, mt.media_id, m.media_type, m.file_name, m.width, m.height, m.thumb_hash, m.parent_media_id, m.frame_timestamp,
          mt.uniqueness_score, mt.is_outlier, mt.duplicate_group, m.quality_flags, mt.relevance, 0::real as rank, mt.caption, mt.n_objects, mt.object_labels,
          c.cluster_size, c.n_images, c.n_videos, c.cluster_objects, c.total_clusters, c.best_relevance, c.best_uniqueness
        from matched mt join clusters c using (cluster_id) cross join lateral (select * from media where id = mt.media_id limit 1) m`,
    });
  }
  const fts = q.filters.text.filter((t) => t.op === 'fts').map((t) => t.value);
  const rank = fts.length > 0 ? sql`ts_rank(${MEDIA_TEXT}, ${tsQuery(fts)})` : sql`0::real`;
  return groupedPage(db, q, {
    matched: sql`select ${cluster} as cluster_id, vm.media_id, m.media_type, m.file_name, m.width, m.height, m.thumb_hash, m.parent_media_id,
          m.frame_timestamp, vm.uniqueness_score, vm.is_outlier, vm.duplicate_group, m.quality_flags, ${relevance} as relevance, ${rank} as rank,
          vm.caption, coalesce(jsonb_array_length(vm.objects), 0) as n_objects, ${labels} as object_labels
        from ${versionRows(q.versionId)} ${await mediaJoin(db, q.versionId, q.level, q.filters)} ${candidatesJoin(q.candidates)}
        where ${where} and m.media_type in ('IMAGE', 'VIDEO_FRAME')`,
    counts: sql`count(*) filter (where media_type = 'IMAGE')::int as n_images, count(distinct parent_media_id)::int as n_videos`,
    members: sql`select m.*, c.cluster_size, c.n_images, c.n_videos, c.cluster_objects, c.total_clusters, c.best_relevance, c.best_uniqueness
        from matched m join clusters c using (cluster_id)`,
  });
}

/**
 * The page from its parts: `matched` (the matching rows, each with its cluster), `counts` (of images and videos, over
 * a cluster's matches) and `members` (the page's clusters' matches with the columns a page shows); the matches are
 * held (a CTE) and grouped and sorted whole, in 64 MB: at 1M media a filter matching a tenth spilled them to disk.
 */
async function groupedPage(db: Db, q: ExplorePageQuery, parts: { matched: RawBuilder<unknown>; counts: RawBuilder<unknown>; members: RawBuilder<unknown> }) {
  const clusterOrder =
    q.sort === 'relevance' ? sql`best_relevance asc nulls last, cluster_size desc` : q.sort === 'uniqueness' ? sql`best_uniqueness desc nulls last, cluster_size desc` : sql`cluster_size desc`;
  const memberOrder =
    q.sort === 'relevance'
      ? sql`relevance asc nulls last`
      : q.sort === 'uniqueness'
        ? sql`uniqueness_score desc nulls last`
        : sql`rank desc, cardinality(quality_flags) asc, (coalesce(width, 0)::int8 * coalesce(height, 0)) desc, uniqueness_score desc nulls last`;
  const result = await db.transaction().execute(async (trx) => {
    await setWorkMem(trx, '64MB');
    return sql<ExploreRow & { total_clusters: string }>`
      with matched as (${parts.matched}),
      clusters as (
        select cluster_id, count(*)::int as cluster_size, ${parts.counts}, sum(n_objects)::int as cluster_objects, min(relevance) as best_relevance,
          max(uniqueness_score) as best_uniqueness, count(*) over () as total_clusters
        from matched group by cluster_id
        order by ${clusterOrder}, cluster_id
        limit ${CLUSTERS_PER_PAGE} offset ${q.page * CLUSTERS_PER_PAGE}
      ),
      members as (${parts.members}),
      ranked as (select *, row_number() over (partition by cluster_id order by ${memberOrder}, media_id) as position from members)
      select r.*, coalesce(a.tags, '{}') as tags, a.label, ${versionIssuesOf(sql`r.media_id`, sql`${q.versionId}::uuid`)} as version_issues from ranked r
      left join lateral (select tags, label from version_annotations a where a.version_id = ${q.versionId}::uuid and a.media_id = r.media_id limit 1) a on true
      where r.position <= ${q.previewsLimit}
      order by ${clusterOrder}, cluster_id, position`.execute(trx);
  });
  const totalClusters = result.rows.length > 0 ? Number(result.rows[0]!.total_clusters) : q.page === 0 ? 0 : await countClusters(db, q);
  return { rows: result.rows, totalClusters };
}

/** The clusters a page past the last would have counted. */
async function countClusters(db: Db, q: ExplorePageQuery): Promise<number> {
  const cluster = clusterColumn(q.level);
  const row = await sql<{ n: string }>`select count(distinct ${cluster}) as n
    from ${versionRows(q.versionId)} ${await mediaJoin(db, q.versionId, q.level, q.filters)} ${candidatesJoin(q.candidates)}
    where vm.version_id = ${q.versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${candidatesWhere(q.candidates)}
      and ${filtersSql(q.filters, q.versionId)}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}
