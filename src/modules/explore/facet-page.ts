import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { type ExploreFilters, isEmptyFilters } from '../../core/vql.js';
import { type Facet, facetTotals } from '../versions/facet-summaries.js';
import type { ExploreRow } from './explore-rows.js';
import { summarisedRows } from './summary-page.js';

/** The one tag or label a filter set asks for, when it asks for nothing else: a page its facet summaries can answer. */
export function singleFacet(f: ExploreFilters): { facet: Facet; value: string } | undefined {
  const onlyTags = f.labels.length === 0 && f.tags.length === 1 && f.tags[0]!.length === 1;
  const onlyLabels = f.tags.length === 0 && f.labels.length === 1 && f.labels[0]!.length === 1;
  if (!(onlyTags || onlyLabels) || !isEmptyFilters({ ...f, tags: [], labels: [] })) return undefined;
  return onlyTags ? { facet: 'tag', value: f.tags[0]![0]! } : { facet: 'label', value: f.labels[0]![0]! };
}

/**
 * One size-sorted Explore page filtered by one tag or label, read from the version's facet summaries
 * (versions/facet-summaries.ts) like summaryPage reads its cluster summaries. Undefined when the facet is not
 * summarised in the version (too rare, or its summaries not written yet) or the page asks for more members than a
 * summary keeps. Cost: the page, however many media carry the facet.
 */
export async function facetPage(
  db: Db,
  q: { versionId: string; level: number; page: number; previewsLimit: number; clustersPerPage: number; facet: Facet; value: string },
): Promise<{ rows: ExploreRow[]; totalClusters: number } | undefined> {
  const totals = await facetTotals(db, q.versionId, q.facet, q.value);
  if (!totals) return undefined;
  const clusters = sql`select s.cluster_id, s.size, s.n_images, s.n_videos, s.n_objects, s.previews from facet_summaries s
    where s.version_id = ${q.versionId}::uuid and s.facet = ${q.facet} and s.value = ${q.value} and s.level = ${q.level}::int2
    order by s.size desc, s.cluster_id
    limit ${q.clustersPerPage} offset ${q.page * q.clustersPerPage}`;
  const rows = await summarisedRows(db, q.versionId, clusters, q.previewsLimit);
  return rows && { rows, totalClusters: totals[q.level] ?? 0 };
}
