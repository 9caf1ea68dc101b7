import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../adapters/db/database.js';
import type { NewMedia, UploadFileRow } from '../../adapters/db/schema.js';
import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import { type ImageAnalysis, ImageDecodeError } from '../../adapters/media/image.js';
import { type FrameOptions, VideoDecodeError, extractFrames, probeVideo } from '../../adapters/media/video.js';
import type { IngestionRepo } from '../ingestion/ingestion.repo.js';
import type { ImageRowWriter } from './image-rows.js';
import type { MediaRepo } from './media.repo.js';

/** Where image analysis runs: the worker-thread pool in the service, anything with the same shape in tests. */
export interface ImageAnalyzer {
  analyze(filePath: string, format: string, signal?: AbortSignal): Promise<ImageAnalysis>;
}

export interface MediaProcessingDeps {
  db: Db;
  blobs: BlobStore;
  images: ImageAnalyzer;
  media: MediaRepo;
  ingestion: IngestionRepo;
  frames: FrameOptions;
}

/**
 * Turns one uploaded file into immutable media rows (a video also into its frames), written with
 * the file's link in one transaction, so a crash never leaves half a media item and a rerun skips it.
 * An image's row goes to `rows`, which writes it in a batch later ('queued'); a video's are written before this returns.
 * A file that does not decode is recorded with its reason; it does not fail the batch.
 */
export async function processUploadFile(deps: MediaProcessingDeps, file: UploadFileRow, signal: AbortSignal, rows: ImageRowWriter): Promise<'done' | 'queued' | 'failed'> {
  const local = await deps.blobs.localFile(file.blob_hash);
  try {
    if (file.kind === 'image') {
      await processImage(deps, file, local.path, signal, rows);
      return 'queued';
    }
    await processVideo(deps, file, local.path, signal);
    return 'done';
  } catch (err: unknown) {
    if (err instanceof AlreadyLinked) return 'done';
    if (err instanceof ImageDecodeError || err instanceof VideoDecodeError) {
      await deps.ingestion.recordFailure(file.id, err.message);
      return 'failed';
    }
    throw err;
  } finally {
    await local.release();
  }
}

/** Another run of the same task linked the file first; this run's rows are rolled back. */
class AlreadyLinked extends Error {}

async function link(deps: MediaProcessingDeps, trx: Db, fileId: string, mediaId: string): Promise<void> {
  if (!(await deps.ingestion.linkMedia(trx, fileId, mediaId))) throw new AlreadyLinked();
}

/** `originalHash` is the blob of the bytes analysed: it serves as the preview when the analysis made none. */
async function imageFacts(deps: MediaProcessingDeps, analysis: ImageAnalysis, originalHash: string) {
  const [thumb, preview] = await Promise.all([
    deps.blobs.putBuffer(analysis.thumbnail),
    analysis.preview ? deps.blobs.putBuffer(analysis.preview) : { hash: originalHash },
  ]);
  return {
    width: analysis.width,
    height: analysis.height,
    exif: analysis.exif ? JSON.stringify(analysis.exif) : null,
    thumb_hash: thumb.hash,
    preview_hash: preview.hash,
    phash: analysis.phash,
    blur: analysis.blur,
    brightness: analysis.brightness,
    quality_flags: analysis.flags,
    pixel_hash: analysis.pixelHash,
    color_spread: analysis.colorSpread,
    entropy: analysis.entropy,
  };
}

async function insertWithEmbedding(deps: MediaProcessingDeps, trx: Db, media: NewMedia, analysis: ImageAnalysis): Promise<string> {
  const id = await deps.media.insert(trx, media);
  if (analysis.embedding) await deps.media.insertEmbeddings(trx, [{ mediaId: id, embedding: analysis.embedding }]);
  return id;
}

async function processImage(deps: MediaProcessingDeps, file: UploadFileRow, filePath: string, signal: AbortSignal, rows: ImageRowWriter) {
  const analysis = await deps.images.analyze(filePath, file.format, signal);
  const facts = await imageFacts(deps, analysis, file.blob_hash);
  await rows.add({ fileId: file.id, media: { ...original(file), media_type: 'IMAGE', duration_seconds: null, ...facts }, embedding: analysis.embedding });
}

async function processVideo(deps: MediaProcessingDeps, file: UploadFileRow, filePath: string, signal: AbortSignal) {
  const probe = await probeVideo(filePath, signal);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-frames-'));
  try {
    const frames = await extractFrames(filePath, dir, deps.frames, signal);
    const rows: Array<{ timestamp: number; blob: { hash: string; size: number }; analysis: ImageAnalysis; facts: Awaited<ReturnType<typeof imageFacts>> }> = [];
    for (const frame of frames) {
      signal.throwIfAborted();
      const analysis = await deps.images.analyze(frame.path, 'jpeg', signal);
      const blob = await deps.blobs.putBuffer(await fs.readFile(frame.path));
      rows.push({ timestamp: frame.timestampSeconds, blob, analysis, facts: await imageFacts(deps, analysis, blob.hash) });
    }
    const cover = rows[0]?.facts;
    await deps.db.transaction().execute(async (trx) => {
      const videoId = await deps.media.insert(trx, {
        ...original(file),
        media_type: 'VIDEO',
        width: probe.width,
        height: probe.height,
        duration_seconds: probe.durationSeconds,
        exif: null,
        thumb_hash: cover?.thumb_hash ?? null,
        preview_hash: cover?.preview_hash ?? null,
        phash: null,
        blur: null,
        brightness: null,
      });
      for (const [i, row] of rows.entries()) {
        await insertWithEmbedding(deps, trx, {
          blob_hash: row.blob.hash,
          media_type: 'VIDEO_FRAME',
          parent_media_id: videoId,
          frame_timestamp: row.timestamp,
          file_name: `${file.file_name}#frame-${String(i + 1).padStart(4, '0')}.jpg`,
          format: 'jpeg',
          mime: 'image/jpeg',
          size: row.blob.size,
          duration_seconds: null,
          ...row.facts,
        }, row.analysis);
      }
      await link(deps, trx, file.id, videoId);
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function original(file: UploadFileRow): Pick<NewMedia, 'blob_hash' | 'parent_media_id' | 'frame_timestamp' | 'file_name' | 'format' | 'mime' | 'size'> {
  return { blob_hash: file.blob_hash, parent_media_id: null, frame_timestamp: null, file_name: file.file_name, format: file.format, mime: file.mime, size: file.size };
}
