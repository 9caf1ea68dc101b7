import { sql } from 'kysely';
import type { Db } from '../adapters/db/database.js';
import { DUPLICATE_TAG, dedupRequest, dedupSnapshotName, describeDedup } from '../core/dedup.js';
import type { DedupRepo, DedupTotals } from '../modules/dedup/dedup.repo.js';
import { dedupRule } from '../modules/dedup/dedup.service.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { SnapshotsRepo } from '../modules/snapshots/snapshots.repo.js';
import { TAGS_AND_LABELS, rewriteAnnotations } from '../modules/versions/version-annotations.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import type { JobDefinition } from './registry.js';

export interface DedupJobDeps {
  db: Db;
  dedup: DedupRepo;
  lifecycle: Pick<DatasetLifecycle, 'state'>;
  versions: VersionsRepo;
  snapshots: Pick<SnapshotsRepo, 'record'>;
}

/**
 * DEDUP: checks the rule and counts the head's media (progress), then in ONE commit transaction under the dataset row
 * lock, on the head as it is then: the groups found (once), the head kept as a snapshot named for the dedup (restoring it undoes the dedup),
 * and a new head: a full fork without the removed media, or (tag_only) a delta fork where they carry the tag
 * `duplicate`. A crash before the commit leaves nothing; a rerun starts over.
 */
export function dedupJob(deps: DedupJobDeps): JobDefinition {
  return {
    type: 'DEDUP',
    async handler(ctx) {
      const request = dedupRequest(ctx.config);
      await ctx.progress(5, 'Reading the dataset');
      const members = await deps.db.transaction().execute(async (trx) => {
        const state = await deps.lifecycle.state(trx, ctx.datasetId, { lock: false });
        if (!state.headVersionId) return null;
        await dedupRule(trx, deps.versions, deps.dedup, ctx.datasetId, state.headVersionId, request);
        return deps.dedup.countRows(trx, state.headVersionId);
      });
      if (members === null) throw new Error('The dataset has no version to deduplicate');
      ctx.signal.throwIfAborted();
      // The groups are found once, in the commit, on the head as it is then: at 1M media that pass is most of the work.
      await ctx.progress(10, `Finding and ${request.tagOnly ? 'tagging' : 'removing'} duplicates among ${members} media (${describeDedup(request)})`);
      await ctx.commit(
        async (trx): Promise<DedupTotals & { snapshotName: string | null }> => {
          const state = await deps.lifecycle.state(trx, ctx.datasetId);
          if (!state.headVersionId) throw new Error('The dataset has no version to deduplicate');
          const headId = state.headVersionId;
          const rule = await dedupRule(trx, deps.versions, deps.dedup, ctx.datasetId, headId, request);
          const totals = await deps.dedup.markRemoved(trx, headId, rule);
          if (totals.media_removed === 0) return { ...totals, snapshotName: null };
          const { rows } = await sql<{ now: Date }>`select now() as now`.execute(trx);
          const snapshotName = dedupSnapshotName(request, rows[0]!.now);
          await deps.snapshots.record(trx, {
            datasetId: ctx.datasetId,
            createdBy: ctx.createdBy,
            reason: 'manual',
            name: snapshotName,
            description: `Taken by DEDUP task ${ctx.taskId} before it ${request.tagOnly ? `tagged ${totals.media_removed} media '${DUPLICATE_TAG}'` : `removed ${totals.media_removed} media`}; restore it to undo the dedup`,
          });
          if (request.tagOnly) {
            const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'written by the caller');
            await rewriteAnnotations(
              trx,
              TAGS_AND_LABELS,
              headId,
              versionId,
              deps.dedup.removed(),
              { tags: sql`array(select distinct t from unnest(a.tags || ${[DUPLICATE_TAG]}::text[]) t order by t)` },
              sql`not (a.tags @> ${[DUPLICATE_TAG]}::text[])`,
              totals.media_removed,
            );
            await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          } else {
            // A full copy of the head's rows but the removed ones: a delta cannot leave out rows its base holds.
            const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'full', 'carried', deps.dedup.removed());
            await deps.versions.swapHead(trx, ctx.datasetId, versionId, await deps.versions.counts(trx, versionId));
          }
          return { ...totals, snapshotName };
        },
        (r) =>
          r.snapshotName === null
            ? `No duplicates found (${describeDedup(request)}); nothing changed`
            : `${request.tagOnly ? `Tagged '${DUPLICATE_TAG}'` : 'Removed'} ${r.media_removed} media, kept ${r.media_kept} of ${r.groups} group(s); snapshot "${r.snapshotName}" holds the dataset as it was`,
      );
    },
  };
}
