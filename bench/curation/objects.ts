import type { CurationCase } from './case.js';
import { explored } from './mislabels.js';

/** Label errors on detected objects (target objects, k = 10, threshold 0.7) from the detection's stored graph, then its flags against the planted flips. */
export const objectsCase: CurationCase = {
  name: 'objects',
  async run(ctx) {
    if (!ctx.objects) throw new Error('no objects were planted');
    const start = performance.now();
    const started = await ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/label_errors`, { target: 'objects' }, 202);
    const task = await ctx.waitTask(started.task_id as string);
    const rows = [{ step: `label errors on ${ctx.objects.planted} objects, k=10, threshold 0.7 (POST -> COMPLETED)`, seconds: (performance.now() - start) / 1000, found: String(task.status_message) }];
    const pageStart = performance.now();
    await ctx.send('GET', `/api/v1/explore/${ctx.datasetId}?entity_type=OBJECTS&issue_type=mislabels&threshold=0`);
    rows.push({ step: 'Explore objects view, first page of issue_type=mislabels', seconds: (performance.now() - pageStart) / 1000, found: '' });
    const countStart = performance.now();
    const flagged = await explored(ctx, 'issue_type=mislabels', true);
    const planted = new Set(ctx.objects.flippedIds);
    const hits = [...flagged].filter((id) => planted.has(id)).length;
    rows.push({
      step: 'object mislabels against the planted flips (objects view, every page)',
      seconds: (performance.now() - countStart) / 1000,
      found: `flagged ${flagged.size}, planted ${planted.size}: precision ${(flagged.size ? hits / flagged.size : 0).toFixed(3)}, recall ${(planted.size ? hits / planted.size : 0).toFixed(3)}`,
    });
    return { rows };
  },
};
