import type { CurationCase, CurationContext, CurationResult } from './case.js';

const secs = (from: number) => (performance.now() - from) / 1000;

/**
 * Dedup (issue 29 part 2) on the seeded dataset: the dry run of each scope (a page of groups and the totals), then the
 * task that snapshots the head and writes a version without the near-duplicates, then the restore of that snapshot,
 * which undoes it and leaves the dataset as the next case expects it (same media, READY).
 */
export const dedupCase: CurationCase = {
  name: 'dedup',
  async run(ctx: CurationContext): Promise<CurationResult> {
    const rows: CurationResult['rows'] = [];
    const route = `/api/v1/dataset/${ctx.datasetId}/dedup`;
    const dataset = () => ctx.send('GET', `/api/v1/dataset/${ctx.datasetId}`);
    const before = (await dataset()).n_images as number;

    for (const scope of ['exact', 'near'] as const) {
      const start = performance.now();
      const plan = await ctx.send('POST', route, { scope, keep: 'largest_resolution', dry_run: true });
      const t = plan.totals as Record<string, number>;
      rows.push({ step: `dry run ${scope}${scope === 'near' ? ' level 0' : ''}`, seconds: secs(start), found: `${t.groups} groups, ${t.media_removed} of ${before} to remove` });
    }

    let start = performance.now();
    const { task_id: taskId } = await ctx.send('POST', route, { scope: 'near', level: 0, keep: 'largest_resolution' }, 202);
    const task = await ctx.waitTask(taskId as string);
    const after = (await dataset()).n_images as number;
    rows.push({ step: 'task near level 0 (snapshot + version without them)', seconds: secs(start), found: `${before - after} removed: ${String(task.status_message)}` });

    const snapshots = (await ctx.send('GET', `/api/v1/dataset/${ctx.datasetId}/snapshot`)) as unknown as Array<Record<string, string>>;
    const taken = snapshots.find((s) => s.snapshot_name!.startsWith('Before dedup'));
    if (!taken) throw new Error('the dedup took no snapshot');
    start = performance.now();
    await ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/snapshot/${taken.snapshot_id}/restore`, undefined, 202);
    const restores = await ctx.send('GET', `/api/v1/tasks?dataset_id=${ctx.datasetId}&task_type=SNAPSHOT_RESTORE`);
    await ctx.waitTask((restores.tasks as Array<{ task_id: string }>)[0]!.task_id);
    const restored = (await dataset()).n_images as number;
    rows.push({ step: 'restore the snapshot (undo)', seconds: secs(start), found: `${restored} media again (${restored === before ? 'all back' : `expected ${before}`})` });
    return { rows };
  },
};
