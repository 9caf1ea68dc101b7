import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { summariesOf, summaryState } from '../versions/cluster-summaries.js';
import type { ExploreRow } from './explore.repo.js';

/**
 * One unfiltered, size-sorted Explore page read from the version's cluster summaries (cluster-summaries.ts): the
 * page's clusters by the summaries' page index, then their first `previewsLimit` members by key. Undefined when the
 * version has no summaries (written before them, or not yet a head). Cost: the page, whatever the dataset's size.
 */
export async function summaryPage(
  db: Db,
  q: { versionId: string; level: number; page: number; previewsLimit: number; clustersPerPage: number },
): Promise<{ rows: ExploreRow[]; totalClusters: number } | undefined> {
  const summary = await summaryState(db, q.versionId);
  if (!summary) return undefined;
  const result = await sql<ExploreRow>`
    with page as materialized (
      select s.cluster_id, s.size, s.n_images, s.n_videos, s.n_objects, s.previews
      from ${summariesOf(q.versionId, summary.base_id, q.level)} s where s.size > 0
      order by s.size desc, s.cluster_id
      limit ${q.clustersPerPage} offset ${q.page * q.clustersPerPage}
    )
    select p.cluster_id, p.size as cluster_size, p.n_images, p.n_videos, p.n_objects as cluster_objects,
      vm.media_id, m.media_type, m.file_name, m.width, m.height, m.thumb_hash, m.parent_media_id, m.frame_timestamp,
      vm.uniqueness_score, vm.is_outlier, vm.duplicate_group, m.quality_flags, vm.tags, vm.label, null::real as relevance, vm.caption,
      coalesce(jsonb_array_length(vm.objects), 0) as n_objects,
      array(select distinct o ->> 'label' from jsonb_array_elements(coalesce(vm.objects, '[]')) o order by 1) as object_labels
    from page p
    cross join lateral unnest(p.previews[1:${q.previewsLimit}::int]) with ordinality as x(media_id, position)
    -- limit 1 keeps each lookup a probe by key: flattened, the planner merge-joined the version's every row.
    cross join lateral (select * from version_media v where v.version_id = ${q.versionId}::uuid and v.media_id = x.media_id limit 1) vm
    cross join lateral (select * from media where id = x.media_id limit 1) m
    order by p.size desc, p.cluster_id, x.position`.execute(db);
  return { rows: result.rows, totalClusters: summary.n_clusters[q.level] ?? 0 };
}
