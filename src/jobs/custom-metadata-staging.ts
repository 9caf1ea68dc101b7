import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { TableFormat } from '../adapters/tables/table-rows.js';
import type { FieldTypes, KeyColumn } from '../core/custom-fields.js';
import type { CustomMetadataRepo } from '../modules/custom-metadata/custom-metadata.repo.js';
import type { ImportReportBody } from '../modules/custom-metadata/custom-metadata.service.js';
import { type CheckedRows, checkRows } from '../modules/custom-metadata/metadata-file.js';
import type { TaskContext } from './registry.js';

/** What the request fixed: the stored file and the plan it was checked against. */
export type ImportConfig = { blob_hash: string; format: TableFormat; size: number; key: KeyColumn; types: FieldTypes };

const REJECTIONS_KEPT = 100;

/**
 * The streaming phase of CUSTOM_METADATA: the whole file read once, each row checked against the types fixed at
 * the request, the good rows copied into staging as they are read (the reader waits for the database, so memory
 * stays flat), the bad ones counted and the first kept with their reasons. On failure the COPYs are cancelled;
 * rows one of them may have kept go with the staging table, which the job drops.
 */
export async function stageFile(deps: { blobs: BlobStore; customMetadata: CustomMetadataRepo }, ctx: TaskContext, config: ImportConfig) {
  const file = { blobHash: config.blob_hash, format: config.format, size: config.size };
  const counts = { rows: 0, rejected: 0 };
  const rejections: ImportReportBody['rejections'] = [];
  let bytes = 0;
  let reported = -1;
  let reporting = Promise.resolve();
  const stager = await deps.customMetadata.stager(ctx.taskId);
  const to: CheckedRows = {
    stage(line, key, fields) {
      counts.rows += 1;
      stager.add(line, key, fields);
    },
    reject(line, reason) {
      counts.rows += 1;
      counts.rejected += 1;
      if (rejections.length < REJECTIONS_KEPT) rejections.push({ line, reason });
    },
    async batchDone() {
      await stager.flush();
      ctx.signal.throwIfAborted();
      const pct = config.format === 'parquet' ? 50 : Math.floor(5 + (80 * bytes) / Math.max(1, config.size));
      if (pct <= reported) return;
      // One report at a time, each awaited by the next (or the end): reading goes on while it is written.
      await reporting;
      reported = pct;
      reporting = ctx.progress(pct, `Read ${counts.rows} row(s), ${counts.rejected} rejected`);
      reporting.catch(() => {});
    },
  };
  try {
    await checkRows(deps.blobs, file, config, to, (n) => (bytes += n));
    await to.batchDone();
    await reporting;
  } catch (err) {
    await stager.abort();
    throw err;
  }
  await stager.end();
  return { counts, rejections };
}
