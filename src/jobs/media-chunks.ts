import type { IngestionRepo } from '../modules/ingestion/ingestion.repo.js';
import { type MediaProcessingDeps, processUploadFile } from '../modules/media/media-processing.js';
import { ImageRowWriter } from '../modules/media/image-rows.js';
import { forEachConcurrent } from './lib/concurrency.js';
import type { ChunkWork } from './task-chunks.js';

export interface MediaChunkDeps extends MediaProcessingDeps {
  ingestion: IngestionRepo;
  /** Media decoded at once by one claimer. */
  concurrency: number;
}

/** What a media chunk job needs beyond its run: the upload transaction, and the task's own media concurrency. */
export interface MediaChunkPayload {
  datasetId: string;
  transId: number;
  concurrency?: number;
}

/**
 * The media stage's work on a chunk (task-chunks.ts): the transaction's upload files in the chunk's id range that
 * are neither linked nor failed. A file is linked to its media in the transaction that writes them (processUploadFile;
 * images in batches, image-rows.ts), so a file done twice (a chunk taken over, a rerun) is brought in once. The chunk
 * is done when every batch is committed; rows still queued when it fails are written if they can be.
 */
export function mediaChunkWork(deps: MediaChunkDeps, payload: MediaChunkPayload): ChunkWork {
  return async (range, signal, onItem) => {
    const files = await deps.ingestion.pendingFilesIn(payload.datasetId, payload.transId, range);
    const rows = new ImageRowWriter(deps, onItem);
    try {
      await forEachConcurrent(
        files,
        payload.concurrency ?? deps.concurrency,
        async (file) => {
          if ((await processUploadFile(deps, file, signal, rows)) !== 'queued') await onItem();
        },
        signal,
      );
    } catch (err) {
      await rows.drain().catch(() => {});
      throw err;
    }
    await rows.drain();
  };
}
