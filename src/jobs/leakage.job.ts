import type { Db } from '../adapters/db/database.js';
import { crossParams } from '../adapters/vectors/cross-forest.js';
import { findAcross } from '../adapters/vectors/cross-search.js';
import type { NeighbourGraph } from '../core/clustering.js';
import type { LeakageRepo, PairRows } from '../modules/leakage/leakage.repo.js';
import { type LeakageComparison, type LeakageConfig, percentOf } from '../modules/leakage/leakage-plan.js';
import { type LoadedSides, type SideSource, loadSides, mediaIdOf, sharedMean } from '../modules/leakage/leakage-sides.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition, TaskContext } from './registry.js';

export interface LeakageDeps {
  db: Db;
  leakage: LeakageRepo;
  lifecycle: Pick<DatasetLifecycle, 'state' | 'guard'>;
  versions: VersionsRepo;
  /** Worker threads the search runs on (INDEX_THREADS). */
  threads: number;
}

/** Pairs written per statement. */
const PAIR_BATCH = 5000;

/**
 * LEAKAGE (docs/curation.md, Leakage): both sides' vectors streamed into shared memory, the pairs across at the
 * threshold found on worker threads (cross-forest.ts), stored; in the commit the counts per side, the run's row and,
 * when asked, the tag on the leaked media of each side whose dataset may be changed then (a delta fork, head swapped).
 * A rerun clears the pairs of the attempt before and starts again.
 */
export function leakageJob(deps: LeakageDeps): JobDefinition {
  return {
    type: 'LEAKAGE',
    async handler(ctx) {
      const config = ctx.config as unknown as LeakageConfig;
      const otherId = config.other_dataset_id ?? null;
      await ctx.progress(2, 'Reading the sides');
      const own = await headIndex(deps, ctx.datasetId);
      const other = otherId ? await headIndex(deps, otherId) : null;
      if (other && other.model !== own.model) throw new Error(`The datasets were embedded by different models (${own.model} and ${other.model})`);
      const sources: SideSource[] = other
        ? [{ index: own, code: 0, split: null }, { index: other, code: 1, split: null }]
        : [{ index: own, code: null, split: { field: config.split_field!, values: config.sides } }];
      const capacity = (await deps.leakage.countMembers(own.versionId)) + (other ? await deps.leakage.countMembers(other.versionId) : 0);
      const loaded = await loadSides(deps.leakage, sources, config.sides.length, capacity, sharedMean(other ? [own, other] : [own]), ctx.signal, (rows) =>
        ctx.progress(2 + Math.round((28 * rows) / Math.max(1, capacity)), `Read ${rows} of up to ${capacity} vectors`),
      );

      const sides = config.sides.length;
      const compared = new Uint8Array(sides * sides);
      for (const [x, y] of config.pairs) compared[x * sides + y] = compared[y * sides + x] = 1;
      const params = crossParams(loaded.n, config.threshold);
      let reported = 0;
      const { lists, exact } = await findAcross({ q8: loaded.q8, d: loaded.d, n: loaded.n, codes: loaded.codes, sides, compared, params }, deps.threads, ctx.signal, (fraction, message) => {
        const pct = 30 + Math.round(55 * fraction);
        if (pct > reported) void ctx.progress((reported = pct), `Searching across the sides: ${message}`).catch(() => {});
      });
      await ctx.progress(85, `Storing the pairs found (${exact ? 'exact search' : `${params.trees} trees`})`);
      await deps.leakage.clearPairs(ctx.taskId);
      await storePairs(deps.leakage, ctx.taskId, loaded, lists, config.pairs, sides);
      await ctx.progress(95, 'Counting the leaked media of each side');

      await ctx.commit(
        async (trx) => {
          const counts = await deps.leakage.pairCounts(trx, ctx.taskId);
          const tagged = config.tag ? await tagSides(deps, trx, ctx, config, otherId) : new Set<string>();
          const names = config.sides;
          const comparisons: LeakageComparison[] = config.pairs.map(([x, y], c) => {
            const found = counts.get(c) ?? { pairs: 0, a: 0, b: 0 };
            const datasetOf = (code: number) => (otherId && code === 1 ? otherId : ctx.datasetId);
            const side = (code: number, leaked: number) => ({
              name: names[code]!,
              dataset_id: datasetOf(code),
              n_media: loaded.sizes[code]!,
              n_leaked: leaked,
              percent_leaked: percentOf(leaked, loaded.sizes[code]!),
              n_tagged: tagged.has(datasetOf(code)) ? leaked : null,
            });
            return { side_a: side(x, found.a), side_b: side(y, found.b), n_pairs: found.pairs };
          });
          await deps.leakage.saveRun(trx, {
            task_id: ctx.taskId,
            dataset_id: ctx.datasetId,
            other_dataset_id: otherId,
            split_field: config.split_field ?? null,
            threshold: config.threshold,
            tag: config.tag,
            comparisons,
          });
          return comparisons;
        },
        (comparisons) => comparisons.map(describe).join('; '),
      );
    },
  };
}

async function headIndex(deps: LeakageDeps, datasetId: string) {
  const state = await deps.db.transaction().execute((trx) => deps.lifecycle.state(trx, datasetId, { lock: false }));
  const index = state.headVersionId ? await deps.leakage.sideIndex(state.headVersionId) : null;
  if (!index) throw new Error(`Dataset ${datasetId} has no index`);
  return index;
}

/**
 * Writes the pairs from every item's list, each oriented (side a, side b) of its comparison; a pair both of whose
 * items list each other is written from its side-a item only.
 */
async function storePairs(repo: LeakageRepo, taskId: string, loaded: LoadedSides, lists: NeighbourGraph, pairs: Array<[number, number]>, sides: number): Promise<void> {
  const comparisonOf = new Int16Array(sides * sides).fill(-1);
  pairs.forEach(([x, y], c) => (comparisonOf[x * sides + y] = comparisonOf[y * sides + x] = c));
  const { k, neighbours, similarities } = lists;
  const listsHas = (i: number, j: number) => {
    for (let s = 0; s < k; s++) if (neighbours[i * k + s] === j) return true;
    return false;
  };
  let batch: PairRows = { comparisons: [], mediaA: [], mediaB: [], similarities: [] };
  for (let i = 0; i < loaded.n; i++) {
    for (let s = 0; s < k; s++) {
      const j = neighbours[i * k + s]!;
      if (j < 0) break;
      const c = comparisonOf[loaded.codes[i]! * sides + loaded.codes[j]!]!;
      if (c < 0) continue;
      const iIsA = loaded.codes[i] === pairs[c]![0];
      if (!iIsA && listsHas(j, i)) continue;
      batch.comparisons.push(c);
      batch.mediaA.push(mediaIdOf(loaded.ids, iIsA ? i : j));
      batch.mediaB.push(mediaIdOf(loaded.ids, iIsA ? j : i));
      batch.similarities.push(Math.min(1, similarities[i * k + s]!));
      if (batch.mediaA.length >= PAIR_BATCH) {
        await repo.insertPairs(taskId, batch);
        batch = { comparisons: [], mediaA: [], mediaB: [], similarities: [] };
      }
    }
  }
  await repo.insertPairs(taskId, batch);
}

/**
 * Tags the leaked media of each dataset the run may change (its own; the other one when the caller could change it),
 * each under its row lock (taken in id order) with the edit guard: a dataset that a head-replacing task now holds is
 * left untagged. Returns the datasets tagged.
 */
async function tagSides(deps: LeakageDeps, trx: Db, ctx: TaskContext, config: LeakageConfig, otherId: string | null): Promise<Set<string>> {
  const tag = config.tag!;
  const targets = [ctx.datasetId, ...(otherId && config.tag_other ? [otherId] : [])].sort();
  const tagged = new Set<string>();
  for (const datasetId of targets) {
    const state = await deps.lifecycle.state(trx, datasetId);
    try {
      deps.lifecycle.guard(state, 'edit_annotations');
    } catch {
      ctx.log.warn({ datasetId }, 'leakage: dataset not tagged, a task replacing its head is running');
      continue;
    }
    if (!state.headVersionId) continue;
    const sides = otherId
      ? [{ comparison: 0, side: datasetId === ctx.datasetId ? ('a' as const) : ('b' as const) }]
      : config.pairs.flatMap((_, c) => [
          { comparison: c, side: 'a' as const },
          { comparison: c, side: 'b' as const },
        ]);
    if (await deps.leakage.needsTag(trx, ctx.taskId, state.headVersionId, sides, tag)) {
      const versionId = await deps.versions.fork(trx, datasetId, datasetId === ctx.datasetId ? ctx.taskId : null, 'delta', 'written by the caller');
      await deps.leakage.tagLeaked(trx, ctx.taskId, state.headVersionId, versionId, sides, tag);
      await deps.versions.swapHead(trx, datasetId, versionId, await deps.leakage.counts(trx, datasetId));
    }
    tagged.add(datasetId);
  }
  return tagged;
}

function describe(c: LeakageComparison): string {
  const { side_a: a, side_b: b } = c;
  return `${b.n_leaked} of ${b.n_media} ${b.name} media (${b.percent_leaked} %) have a near-duplicate in ${a.name}, ${a.n_leaked} of ${a.n_media} ${a.name} media (${a.percent_leaked} %) in ${b.name}; ${c.n_pairs} pairs`;
}
