import type pg from 'pg';
import type { Logger } from 'pino';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
import type { Db } from '../adapters/db/database.js';
import { buildArchive } from '../modules/exports/export-archive.js';
import type { MediaSelection } from '../modules/exports/export-items.js';
import type { ExportsRepo } from '../modules/exports/exports.repo.js';
import type { BlobGcRepo } from '../modules/media/blob-gc.repo.js';

export interface ExportJobDeps {
  db: Db;
  /** For the COPY of a Parquet export's columns. */
  pool: pg.Pool;
  blobs: BlobStore;
  exports: ExportsRepo;
  blobGc: Pick<BlobGcRepo, 'queue'>;
  log: Logger;
  /** How long a finished export (its archive, its status) is kept. */
  ttlSeconds: number;
}

/**
 * Builds one export's archive (graphile job EXPORT; exports are not Task Manager tasks). A rerun after a
 * crash starts the archive again from the same version; a failure ends the export FAILED with its reason.
 */
export async function runExport(deps: ExportJobDeps, exportId: string, signal: AbortSignal): Promise<void> {
  const row = await deps.exports.claim(exportId);
  if (!row) return;
  const expiresAt = () => new Date(Date.now() + deps.ttlSeconds * 1000);
  try {
    if (!row.version_id) throw new Error('the version this export was started on no longer exists');
    const total = row.item_count ?? 0;
    let reported = -1;
    const archive = await buildArchive(
      deps,
      {
        versionId: row.version_id,
        selection: row.selection as MediaSelection | null,
        format: row.export_format,
        includeImages: row.include_images,
        info: {
          schema_version: '1.1',
          dataset: row.dataset_name,
          dataset_id: row.dataset_id,
          dataset_creation_time: row.dataset_created_at.toISOString(),
          export_time: new Date().toISOString(),
          exported_by: row.exported_by,
          description: row.dataset_description,
          total_media_items: total,
        },
      },
      signal,
      async (done) => {
        const pct = total === 0 ? 99 : Math.min(99, Math.floor((done / total) * 99));
        if (pct > reported) await deps.exports.progress(exportId, pct);
        reported = pct;
      },
    );
    const finished = await deps.exports.finish(exportId, {
      status: 'COMPLETED',
      message: `Exported ${archive.items} media item(s)${row.include_images ? ' with their files' : ''}`,
      blobHash: archive.hash,
      size: archive.size,
      expiresAt: expiresAt(),
    });
    // Its dataset went meanwhile: nothing will reference the archive, so the sweep may take it.
    if (!finished) await deps.blobGc.queue([archive.hash]);
  } catch (err) {
    // A shutdown leaves the export RUNNING; the queue runs it again after the restart.
    if (signal.aborted) throw err;
    deps.log.error({ err, exportId }, 'export failed');
    await deps.exports.finish(exportId, { status: 'FAILED', message: err instanceof Error ? err.message : String(err), expiresAt: expiresAt() });
  }
}
