import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { Db } from '../adapters/db/database.js';
import { type FieldTypes, typeConflicts } from '../core/custom-fields.js';
import type { CustomMetadataRepo } from '../modules/custom-metadata/custom-metadata.repo.js';
import type { ImportReportBody } from '../modules/custom-metadata/custom-metadata.service.js';
import type { AnnotationsRepo } from '../modules/annotations/annotations.repo.js';
import type { DatasetsRepo } from '../modules/datasets/datasets.repo.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';
import { CUSTOM_FIELDS, completeRewrite } from '../modules/versions/version-annotations.js';
import type { VersionsRepo } from '../modules/versions/versions.repo.js';
import { type ImportConfig, stageFile } from './custom-metadata-staging.js';
import type { JobDefinition } from './registry.js';

export interface CustomMetadataDeps {
  db: Db;
  blobs: BlobStore;
  blobGc: BlobGcRepo;
  customMetadata: CustomMetadataRepo;
  annotations: AnnotationsRepo;
  datasets: DatasetsRepo;
  versions: VersionsRepo;
}

/**
 * CUSTOM_METADATA: the whole file streamed once into staging (each row checked against the types fixed at
 * the request; bad rows rejected with their reason); then the staged rows matched and merged into field rows
 * of the version the import will make (writeFields, outside the dataset lock: nothing else changes custom
 * fields or membership while an import runs, since every data change and restore waits for it); then, in the
 * commit and under the lock, that version forked from the head as it is then (edits may have forked it
 * meanwhile) and completed with the head's other annotations, the field types recorded, the head swapped and
 * the report kept on the task. A failure changes nothing visible; a rerun takes back what an earlier attempt
 * wrote and starts over.
 */
export function customMetadataJob(deps: CustomMetadataDeps): JobDefinition {
  return {
    type: 'CUSTOM_METADATA',
    async handler(ctx) {
      const config = ctx.config as ImportConfig;
      const pending = importVersionId(ctx.taskId);
      await deps.customMetadata.clear(ctx.taskId);
      await deps.customMetadata.dropFields(pending);
      try {
        const { counts, rejections } = await stageFile(deps, ctx, config);
        if (counts.rows === 0) throw new Error('The file has no rows');
        if (counts.rejected === counts.rows) throw new Error(`No row could be imported; nothing changed (line ${rejections[0]!.line}: ${rejections[0]!.reason})`);
        const from = (await deps.datasets.operationState(deps.db, ctx.datasetId, false))?.headVersionId;
        if (!from) throw new Error('The dataset has no version to import into');
        const fromTypes = await deps.versions.fieldTypes(deps.db, from);
        refuseConflicts(fromTypes, config.types);
        await ctx.progress(90, `Matching and writing ${counts.rows - counts.rejected} row(s)`);
        const matches = await deps.customMetadata.writeFields(from, pending, ctx.taskId, config.key);
        await ctx.commit(
          async (trx) => {
            const state = await deps.datasets.operationState(trx, ctx.datasetId);
            if (!state?.headVersionId) throw new Error('The dataset has no version to import into');
            const headTypes = await deps.versions.fieldTypes(trx, state.headVersionId);
            if (!isDeepStrictEqual(headTypes, fromTypes)) throw new Error('Nothing changed: the custom fields changed while the file was read');
            const sizes = await deps.annotations.counts(trx, ctx.datasetId);
            const versionId = await deps.versions.fork(trx, ctx.datasetId, ctx.taskId, 'delta', 'written by the caller', pending);
            await completeRewrite(trx, CUSTOM_FIELDS, state.headVersionId, versionId, matches.written);
            await deps.versions.setFieldTypes(trx, versionId, { ...headTypes, ...config.types });
            await deps.versions.swapHead(trx, ctx.datasetId, versionId, sizes, state.status);
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
      } catch (err) {
        await deps.customMetadata.clear(ctx.taskId).catch(() => {});
        await deps.customMetadata.dropFields(pending).catch(() => {});
        throw err;
      } finally {
        // The file is only needed while the task is active; the sweep keeps it while it is (blob-gc.repo).
        await deps.blobGc.queue([config.blob_hash]);
      }
    },
  };
}

function refuseConflicts(headTypes: FieldTypes, types: FieldTypes): void {
  const conflicts = typeConflicts(headTypes, types);
  if (conflicts.length > 0) throw new Error(`Nothing changed: ${conflicts.join('; ')}`);
}

/**
 * The id of the version an import makes, fixed by its task (a UUIDv8 from a hash of the task id), so a rerun
 * finds the field rows an earlier attempt wrote before it could commit.
 */
export function importVersionId(taskId: string): string {
  const bytes = createHash('sha256').update(`loupe custom metadata version ${taskId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
