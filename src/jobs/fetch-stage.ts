import { createReadStream } from 'node:fs';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BlobTooLargeError } from '../adapters/blobs/blob-store.js';
import { S3MediaSource, looksLikeMedia, parseS3Uri } from '../adapters/sources/s3-source.js';
import type { NewUploadFile } from '../modules/ingestion/ingestion.repo.js';
import { NotMediaError, storeMedia } from '../modules/ingestion/media-intake.js';
import type { PipelineRun, PipelineStage } from './pipeline.js';

/** Objects read at once from a folder or bucket: I/O-bound, so more than the decode pool. */
const FETCH_CONCURRENCY = 8;
const INSERT_BATCH = 100;

interface Item {
  name: string;
  open(): Promise<Readable>;
}

/**
 * For the sources read by the worker (a bucket, a local folder): stores every media object into the blob
 * store as a file of the batch's transaction. A rerun stores again (same bytes, same blob) and the file
 * rows conflict away, so it resumes. Non-media objects are skipped and counted.
 */
export const fetchStage: PipelineStage = {
  name: 'fetch',
  weight: 2,
  async run(run, progress) {
    const source = run.ctx.config.source;
    if (source !== 's3' && source !== 'path') return;
    const items = source === 's3' ? await s3Items(run) : await folderItems(String(run.ctx.config.path));
    try {
      await storeAll(run, items.list, progress);
    } finally {
      items.close();
    }
  },
};

async function storeAll(run: PipelineRun, items: Item[], progress: (fraction: number, message: string) => Promise<void>): Promise<void> {
  const { ctx, deps } = run;
  const pending: NewUploadFile[] = [];
  let done = 0;
  let skipped = 0;
  const flush = async () => {
    const batch = pending.splice(0, pending.length);
    if (batch.length > 0) await deps.db.transaction().execute((trx) => deps.ingestion.addFiles(trx, ctx.datasetId, run.transId!, batch));
  };
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      ctx.signal.throwIfAborted();
      const item = items[next++]!;
      const stream = await item.open();
      try {
        pending.push(await storeMedia(deps.blobs, stream, item.name, deps.maxFileBytes));
      } catch (err) {
        stream.destroy();
        if (!(err instanceof NotMediaError || err instanceof BlobTooLargeError)) throw err;
        skipped += 1;
      }
      done += 1;
      if (pending.length >= INSERT_BATCH) await flush();
      if (done % 10 === 0 || done === items.length) await progress(done / items.length, `Fetching media: ${done} of ${items.length}${skipped ? ` (${skipped} skipped: not media or too large)` : ''}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, Math.max(1, items.length)) }, lane));
  await flush();
  if (skipped > 0) run.notes.push(`${skipped} object(s) skipped: not media or too large`);
}

async function s3Items(run: PipelineRun): Promise<{ list: Item[]; close(): void }> {
  const uri = String(run.ctx.config.s3_uri);
  const location = parseS3Uri(uri);
  if (!location) throw new Error(`Invalid S3 URI ${uri}`);
  const source = await S3MediaSource.open({ env: run.deps.env, assumeRole: (run.ctx.config.assume_role as string | null) ?? null, signal: run.ctx.signal });
  const list: Item[] = [];
  const folder = location.key === '' || location.key.endsWith('/') || !/\.(csv|parquet|txt)$/i.test(location.key);
  for await (const object of source.list(location)) {
    if (folder && !looksLikeMedia(object.key)) continue;
    // Keys keep their folders so that two objects with one name stay two files.
    const name = object.key.startsWith(location.key) && folder ? object.key.slice(location.key.length).replace(/^\/+/, '') : object.key;
    list.push({ name: name || object.fileName, open: () => source.open(object) });
  }
  return { list, close: () => source.close() };
}

async function folderItems(root: string): Promise<{ list: Item[]; close(): void }> {
  const list: Item[] = [];
  // Regular files only: symbolic links are not followed, so nothing outside the allowed root is read.
  for await (const entry of await opendir(root, { recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath ?? entry.path, entry.name);
    list.push({ name: path.relative(root, full).split(path.sep).join('/'), open: async () => createReadStream(full) });
  }
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { list, close: () => {} };
}
