import type { BlobStore } from '../adapters/blobs/blob-store.js';
import { typeConflicts } from '../core/custom-fields.js';
import type { CustomMetadataRepo } from '../modules/custom-metadata/custom-metadata.repo.js';
import type { ImportReportBody } from '../modules/custom-metadata/custom-metadata.service.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import type { DatasetLifecycle } from '../modules/lifecycle/dataset-lifecycle.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import { type ImportConfig, stageFile } from './custom-metadata-staging.js';
import type { JobDefinition } from './registry.js';

export interface CustomMetadataDeps {
  blobs: BlobStore;
  blobGc: BlobGcRepo;
  customMetadata: CustomMetadataRepo;
  annotations: AnnotationsRepo;
  lifecycle: Pick<DatasetLifecycle, 'state'>;
  versions: VersionsRepo;
}

/**
 * CUSTOM_METADATA: the whole file streamed once into a staging table of its own, dropped when the task ends
 * (each row checked against the types fixed at the request; bad rows rejected with their reason), then, in the
 * commit and under the dataset row lock, a delta fork of the head as it is then, the fields merged set-based
 * into its annotations, the field types recorded on the version, the head swapped and the report kept on the
 * task. A failure changes nothing; a rerun starts over.
 */
export function customMetadataJob(deps: CustomMetadataDeps): JobDefinition {
  return {
    type: 'CUSTOM_METADATA',
    async handler(ctx) {
      const config = ctx.config as ImportConfig;
      await deps.customMetadata.prepare(ctx.taskId);
      try {
        const { counts, rejections } = await stageFile(deps, ctx, config);
        if (counts.rows === 0) throw new Error('The file has no rows');
        if (counts.rejected === counts.rows) throw new Error(`No row could be imported; nothing changed (line ${rejections[0]!.line}: ${rejections[0]!.reason})`);
        await ctx.progress(90, `Applying ${counts.rows - counts.rejected} row(s)`);
        await ctx.commit(
          async (trx) => {
            const state = await deps.lifecycle.state(trx, ctx.datasetId);
            if (!state.headVersionId) throw new Error('The dataset has no version to import into');
            const headTypes = await deps.versions.fieldTypes(trx, state.headVersionId);
            const conflicts = typeConflicts(headTypes, config.types);
            if (conflicts.length > 0) throw new Error(`Nothing changed: ${conflicts.join('; ')}`);
            const matches = await deps.customMetadata.match(trx, state.headVersionId, ctx.taskId, config.key);
            const sizes = await deps.annotations.counts(trx, ctx.datasetId);
            const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'written by the caller');
            await deps.customMetadata.applyFields(trx, state.headVersionId, versionId, ctx.taskId, matches.pairs);
            await deps.versions.setFieldTypes(trx, versionId, { ...headTypes, ...config.types });
            await deps.versions.swapHead(trx, ctx.datasetId, versionId, sizes);
            const report: ImportReportBody = {
              rows: counts.rows,
              matched: counts.rows - counts.rejected - matches.unmatched,
              unmatched: matches.unmatched,
              rejected: counts.rejected,
              rejections,
              unmatched_keys: matches.unmatchedKeys,
            };
            await deps.customMetadata.saveReport(trx, ctx.taskId, report);
            return report;
          },
          (r) => `Imported ${Object.keys(config.types).length} field(s) from ${r.rows} row(s): ${r.matched} matched, ${r.unmatched} unmatched, ${r.rejected} rejected`,
        );
      } finally {
        // A staging table a crash leaves here goes with the garbage sweep.
        await deps.customMetadata.discard(ctx.taskId).catch((err: unknown) => ctx.log.warn({ err }, 'staging table left for the sweep'));
        // The file is only needed while the task is active; the sweep keeps it while it is (blob-gc.repo).
        await deps.blobGc.queue([config.blob_hash]);
      }
    },
  };
}
