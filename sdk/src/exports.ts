import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Transport } from './client.js';
import { LoupeError } from './errors.js';

export interface StartExportOptions {
  format: 'json' | 'parquet';
  includeImages?: boolean;
  /** Name of the ZIP on the server (default `<dataset id>.zip`). */
  fileName?: string;
  /** Export only these media, and/or these whole clusters (selective export). */
  mediaIds?: string[];
  clusterIds?: string[];
}

export async function startExport(t: Transport, datasetId: string, options: StartExportOptions): Promise<{ exportTaskId: string }> {
  const query = { export_format: options.format, include_images: options.includeImages ?? false, file_name: options.fileName ?? `${datasetId}.zip` };
  if (options.mediaIds?.length || options.clusterIds?.length) {
    const media_selection = [
      ...(options.mediaIds?.length ? [{ type: 'media', payload: { media_ids: options.mediaIds } }] : []),
      ...(options.clusterIds ?? []).map((cluster_id) => ({ type: 'cluster', payload: { cluster_id, cluster_filters: { entity_type: 'IMAGES' }, exclude_media_ids: [] } })),
    ];
    const started = await t.json<{ id: string }>('POST', `/api/v1/dataset/${datasetId}/export_entities_async`, { query, json: { media_selection } });
    return { exportTaskId: started.id };
  }
  // Each call starts another export: sent once, not repeated after the server may have acted.
  const started = await t.json<{ id: string }>('GET', `/api/v1/dataset/${datasetId}/export_context_async`, { query, mode: 'unsent' });
  return { exportTaskId: started.id };
}

export interface DownloadOptions {
  onProgress?: (bytesDone: number, bytesTotal: number | null) => void;
  signal?: AbortSignal;
}

/** Streams a completed export's ZIP to `toPath` through `<toPath>.part`, renamed only once every byte is on disk. */
export async function downloadExport(t: Transport, datasetId: string, exportTaskId: string, toPath: string, options: DownloadOptions = {}): Promise<{ path: string; bytes: number }> {
  const status = await t.json<{ status: string; download_uri: string | null; result_message?: string | null }>('GET', `/api/v1/dataset/${datasetId}/export_status`, {
    query: { export_task_id: exportTaskId },
    signal: options.signal,
  });
  if (status.status !== 'COMPLETED' || !status.download_uri) {
    throw new LoupeError(409, status.result_message || `export ${exportTaskId} is ${status.status}, not COMPLETED`, 'GET', `/api/v1/dataset/${datasetId}/export_status`);
  }
  const uri = new URL(status.download_uri, `${t.baseUrl}/`);
  // The link is signed: it carries its own authority, and a redirect to object storage must not carry ours.
  const sameServer = uri.origin === new URL(t.baseUrl).origin;
  const response = await t.send('GET', sameServer ? uri.pathname : uri.toString(), { query: Object.fromEntries(uri.searchParams), signal: options.signal, anonymous: !sameServer });
  const total = Number(response.headers.get('content-length')) || null;
  const target = path.resolve(toPath);
  const part = `${target}.part`;
  let done = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      done += chunk.length;
      options.onProgress?.(done, total);
      next(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), count, fs.createWriteStream(part), { signal: options.signal });
    if (total !== null && done !== total) throw new LoupeError(502, `download ended after ${done} of ${total} bytes`, 'GET', uri.pathname);
    fs.renameSync(part, target);
  } catch (err) {
    fs.rmSync(part, { force: true });
    throw err;
  }
  return { path: target, bytes: done };
}
