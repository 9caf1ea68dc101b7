import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import type { BlobStore, StoredBlob } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import { createZip, zipBytes } from '../../adapters/zip/zip-file.js';
import { type ExportFormat, METADATA_ENTRY } from '../../core/exports.js';
import { parquetMetadata } from './export-columns.js';
import { ImageEntries } from './image-entries.js';
import { type MediaSelection, forEachItemPage, itemsQuery, versionFieldTypes } from './export-items.js';
import { archivePath, exportColumns, metadataRow } from './metadata/columns.js';
import { type ExportInfo, type MetadataWriter, metadataWriter } from './metadata/writers.js';

export interface ArchiveRequest {
  versionId: string;
  selection: MediaSelection | null;
  format: ExportFormat;
  includeImages: boolean;
  info: Omit<ExportInfo, 'total_media_items'> & { total_media_items: number };
}

/** Rows read from the database at once. */
const PAGE = 2_000;

/**
 * Streams the archive into the blob store while it is written: images (stored, not deflated: JPEG and
 * video gain nothing) in archive order as the rows stream past, then the metadata file (deflated), built
 * on disk from the same pass. yazl writes ZIP64 records when an entry or the archive needs them. Parquet
 * is built column-wise apart from the rows' pass (export-columns.ts), which then runs only for the images.
 */
export async function buildArchive(
  deps: { db: Db; pool: pg.Pool; blobs: BlobStore },
  request: ArchiveRequest,
  signal: AbortSignal,
  progress: (done: number) => Promise<void>,
): Promise<StoredBlob & { items: number }> {
  const fieldTypes = await versionFieldTypes(deps.db, request.versionId);
  const fields = Object.keys(fieldTypes).sort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-export-'));
  const zip = createZip();
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  failed.catch(() => {});
  zip.on('error', (err: Error) => zip.outputStream.destroy(err));
  const stored = deps.blobs.put(zipBytes(zip), { signal });
  stored.catch(() => {});
  const images = new ImageEntries(zip, deps.blobs);
  const writer: MetadataWriter | null = request.format === 'parquet' ? null : metadataWriter(request.format, dir, request.info, exportColumns(fieldTypes));
  try {
    let items = 0;
    if (writer || request.includeImages) {
      await forEachItemPage(deps.db, itemsQuery(request.versionId, request.selection), PAGE, async (rows) => {
        for (const item of rows) {
          signal.throwIfAborted();
          await writer?.write(metadataRow(item, request.includeImages, fields), item);
          if (request.includeImages) await images.add({ path: archivePath(item), blobHash: item.blob_hash, size: Number(item.file_size), mtime: item.created_at });
          items += 1;
        }
        await progress(items);
      });
    }
    let metadata: string;
    if (writer) metadata = await writer.finish();
    else {
      const parquet = await parquetMetadata(deps, { ...request, fieldTypes }, dir, signal);
      metadata = parquet.file;
      items = parquet.rows;
    }
    const entry = writer ?? { entryName: METADATA_ENTRY.parquet, compress: false };
    zip.addReadStreamLazy(entry.entryName, { compress: entry.compress, mtime: new Date() }, (cb: (err: Error | null, stream?: Readable) => void) =>
      cb(null, createReadStream(metadata)),
    );
    zip.end();
    const blob = await Promise.race([stored, failed]);
    return { ...blob, items };
  } catch (err) {
    writer?.dispose();
    zip.outputStream.destroy(err as Error);
    throw err;
  } finally {
    images.close();
    await rm(dir, { recursive: true, force: true });
  }
}
