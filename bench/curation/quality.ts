import { ISSUE_TYPES } from '../../src/core/vql.js';
import type { CurationCase, CurationContext, CurationResult } from './case.js';

const secs = (from: number) => (performance.now() - from) / 1000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: secs(start) };
}

const against = (found: number, planted: number | undefined) => (planted === undefined ? `${found}` : `${found} (planted ${planted})`);

/**
 * Issue 29's quality issues (parts 1 and 5): the stored issue counts, an Explore page filtered by each issue type, and
 * what a head swap adds to keep them (an edit of one media, and one selecting the odd sizes by query).
 */
export const quality: CurationCase = {
  name: 'quality',
  async run(ctx: CurationContext): Promise<CurationResult> {
    const rows: CurationResult['rows'] = [];
    const issues = `/api/v1/dataset/${ctx.datasetId}/issues`;
    const counts = await timed(() => ctx.send('GET', issues));
    const c = counts.value.issues as Record<string, number>;
    rows.push({
      step: 'GET issues (stored counts)',
      seconds: counts.seconds,
      found: `exact ${against(c.exact_duplicates!, ctx.exactDuplicates)}, odd size ${against(c.odd_size!, ctx.oddSizes)}, outliers ${c.outliers}, duplicates ${c.duplicates}`,
    });
    let sample: string | undefined;
    for (const issue of ISSUE_TYPES) {
      const page = await timed(() => ctx.send('GET', `/api/v1/explore/${ctx.datasetId}?issue_type=${issue}`));
      const clusters = page.value.clusters as Array<{ n_media: number; previews: Array<{ media_id: string }> }>;
      if (issue === 'exact_duplicates') sample = clusters[0]?.previews[0]?.media_id;
      rows.push({ step: `Explore page 0, issue_type=${issue}`, seconds: page.seconds, found: `${page.value.total_clusters} clusters (${c[issue]} media)` });
    }
    if (sample) {
      const edit = await timed(() => ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/media/tags`, { tags: ['bench-quality'], media_ids: [sample] }));
      const after = (await ctx.send('GET', issues)).issues as Record<string, number>;
      const kept = ISSUE_TYPES.every((t) => after[t] === c[t]);
      rows.push({ step: 'head swap: tag one media (delta version, stored issues carried)', seconds: edit.seconds, found: `${edit.value.changed} changed; counts ${kept ? 'kept' : 'CHANGED'}` });
    }
    const byQuery = await timed(() => ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/media/tags`, { tags: ['odd-size'], query: { issue_type: 'odd_size' } }));
    rows.push({ step: 'head swap: tag by query issue_type=odd_size', seconds: byQuery.seconds, found: `${byQuery.value.matched} matched; odd sizes ${against(c.odd_size!, ctx.oddSizes)}` });
    return { rows };
  },
};
