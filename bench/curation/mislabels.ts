import type { CurationCase, CurationContext } from './case.js';

/**
 * Every media id an Explore filter matches, page by page (level-0 clusters, every member); with `objects`, every object
 * id of the objects view.
 */
export async function explored(ctx: CurationContext, query: string, objects = false): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 0; ; page++) {
    const entity = objects ? 'entity_type=OBJECTS&' : '';
    const body = await ctx.send('GET', `/api/v1/explore/${ctx.datasetId}?${entity}threshold=0&previews_limit=1000&page_number=${page}&${query}`);
    const clusters = body.clusters as Array<{ previews: Array<{ media_id: string; object_id?: string }> }>;
    if (clusters.length === 0) return ids;
    for (const c of clusters) for (const p of c.previews) ids.add(objects ? p.object_id! : p.media_id);
  }
}

/** Label errors at the default k = 10 and threshold 0.7: the task's seconds, then its flagged set against the planted flips. */
export const mislabelsCase: CurationCase = {
  name: 'mislabels',
  async run(ctx) {
    const start = performance.now();
    const started = await ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/label_errors`, {}, 202);
    const task = await ctx.waitTask(started.task_id as string);
    const seconds = (performance.now() - start) / 1000;
    const issues = await ctx.send('GET', `/api/v1/dataset/${ctx.datasetId}/issues`);
    const rows = [{ step: `label errors, k=10, threshold 0.7 (POST -> COMPLETED; goal < 300 s at 1M)`, seconds, found: String(task.status_message) }];
    const countStart = performance.now();
    const flagged = await explored(ctx, 'issue_type=mislabels');
    const planted = new Set(ctx.mislabelledIds);
    const hits = [...flagged].filter((id) => planted.has(id)).length;
    const precision = flagged.size === 0 ? 0 : hits / flagged.size;
    const recall = planted.size === 0 ? 0 : hits / planted.size;
    rows.push({
      step: 'mislabels against the planted flips (Explore issue_type=mislabels, every page)',
      seconds: (performance.now() - countStart) / 1000,
      found: `flagged ${flagged.size} (GET issues: ${issues.issues.mislabels}), planted ${planted.size}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}; class outliers ${issues.issues.class_outliers}`,
    });
    return { rows };
  },
};
