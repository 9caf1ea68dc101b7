import type { CurationCase, CurationContext } from './case.js';

/** Points a page: the route's largest. */
const PAGE = 50_000;

/** A lasso of 64 vertices: a circle of radius 0.2 around the map's middle, dented so it is not convex. */
function lasso(bounds: { min_x: number; min_y: number; max_x: number; max_y: number }): number[][] {
  const cx = (bounds.min_x + bounds.max_x) / 2;
  const cy = (bounds.min_y + bounds.max_y) / 2;
  return Array.from({ length: 64 }, (_, i) => {
    const a = (2 * Math.PI * i) / 64;
    const r = i % 8 < 2 ? 0.1 : 0.2;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await work();
  return [out, (performance.now() - t) / 1000];
}

/**
 * The embedding map at the seeded size: every point read in pages (what a client drawing the whole map does), one
 * lasso selection (count and first page), the same lasso as a VQL filter in Explore, and what the map added to the
 * reindex that made it (its seconds from the map route against the REINDEX task's duration).
 */
export const mapCase: CurationCase = {
  name: 'map',
  async run(ctx: CurationContext) {
    const rows: Array<{ step: string; seconds: number; found: string }> = [];
    const base = `/api/v1/dataset/${ctx.datasetId}/map`;
    const [read, readSeconds] = await timed(async () => {
      let cursor: string | null = null;
      let points = 0;
      let pages = 0;
      let first: Record<string, any> | undefined;
      do {
        const page: Record<string, any> = await ctx.send('GET', `${base}?threshold=2&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
        first ??= page;
        points += page.points.media_id.length;
        pages++;
        cursor = page.next_cursor;
      } while (cursor);
      return { points, pages, first: first! };
    });
    rows.push({ step: `map: read all points (${PAGE} a page)`, seconds: readSeconds, found: `${read.points} of ${ctx.n} points in ${read.pages} pages` });

    const polygon = lasso(read.first.bounds);
    const [selected, selectSeconds] = await timed(() => ctx.send('POST', `${base}/selection`, { polygon, limit: 1000 }));
    rows.push({ step: 'map: lasso selection (64 vertices), count + 1,000 ids', seconds: selectSeconds, found: `${selected.count} media inside` });

    const [explored, exploreSeconds] = await timed(() => ctx.send('GET', `/api/v1/explore/${ctx.datasetId}?threshold=2&vql=${encodeURIComponent(selected.vql)}`));
    rows.push({ step: 'map: Explore page filtered by the lasso (VQL map)', seconds: exploreSeconds, found: `${explored.total_clusters ?? explored.clusters.length} clusters` });

    const tasks = await ctx.send('GET', `/api/v1/tasks?dataset_id=${ctx.datasetId}&task_type=REINDEX`);
    const reindex = tasks.tasks?.[0];
    const mapSeconds = read.first.seconds.umap + read.first.seconds.placement;
    const reindexSeconds = reindex?.end_time ? (Date.parse(reindex.end_time) - Date.parse(reindex.start_time)) / 1000 : Number.NaN;
    rows.push({
      step: 'map: made at index time (UMAP + placement)',
      seconds: mapSeconds,
      found: `sample ${read.first.sample}; UMAP ${read.first.seconds.umap.toFixed(1)} s, placement ${read.first.seconds.placement.toFixed(1)} s; ${Number.isNaN(reindexSeconds) ? 'no REINDEX task' : `${((100 * mapSeconds) / reindexSeconds).toFixed(1)} % of the reindex's ${reindexSeconds.toFixed(0)} s`}`,
    });
    return { rows };
  },
};
