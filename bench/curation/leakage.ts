import type { CurationCase, CurationContext } from './case.js';

/**
 * Leakage (docs/curation.md, Leakage), timed from the POST to the task's end: the seeded dataset against the second
 * one holding `leakedCopies` copies of its media, then the seeded dataset's `split` field (every pair of its values).
 */
export const leakageCase: CurationCase = {
  name: 'leakage',
  async run(ctx) {
    const datasets = await timed(ctx, { other_dataset_id: ctx.otherDatasetId });
    const [across] = datasets.run.comparisons;
    const splits = await timed(ctx, { split_field: 'split' });
    return {
      rows: [
        {
          step: `leakage: ${ctx.n} media against another dataset`,
          seconds: datasets.seconds,
          found:
            `${across.side_b.n_leaked} of the other's ${across.side_b.n_media} media leaked (${ctx.leakedCopies} copies planted), ` +
            `${across.side_a.n_leaked} of ours (${across.side_a.percent_leaked} %), ${across.n_pairs} pairs`,
        },
        {
          step: `leakage: ${ctx.n} media, split field`,
          seconds: splits.seconds,
          found: splits.run.comparisons.map((c: any) => `${c.side_b.name} in ${c.side_a.name}: ${c.side_b.n_leaked} (${c.side_b.percent_leaked} %)`).join(', '),
        },
      ],
    };
  },
};

async function timed(ctx: CurationContext, body: Record<string, unknown>) {
  const started = performance.now();
  const { task_id } = await ctx.send('POST', `/api/v1/dataset/${ctx.datasetId}/leakage`, body, 202);
  await ctx.waitTask(task_id);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, run: await ctx.send('GET', `/api/v1/dataset/${ctx.datasetId}/leakage/${task_id}`) };
}
