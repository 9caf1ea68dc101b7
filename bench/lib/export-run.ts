import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FsBlobStore } from '../../src/adapters/blobs/fs-blob-store.js';
import { readOf } from '../../src/modules/exports/image-entries.js';
import type { Loupe } from '../../src/server.js';
import type { RssSampler } from './ingest.js';

export interface ExportTiming {
  seconds: number;
  archiveBytes: number;
  /** This process's RSS just before (after a GC), and its peak during the export, bytes. */
  rssBefore: number;
  rssPeak: number;
}

/** Sinks bytes the way `cat > /dev/null` does. */
const devNull = () => new Writable({ write: (_chunk, _enc, done) => done() });

/**
 * GET export_context_async with `query`, then export_status every 20 ms until COMPLETED (an error after `timeoutS`);
 * the archive's size from a HEAD of its link.
 */
export async function timeExport(base: string, token: string, datasetId: string, query: string, rss: RssSampler, timeoutS = Infinity): Promise<ExportTiming> {
  const api = async (route: string) => {
    const res = await fetch(`${base}${route}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  global.gc?.();
  await sleep(200);
  const rssBefore = rss.sample();
  const start = performance.now();
  const { id } = await api(`/api/v1/dataset/${datasetId}/export_context_async?${query}`);
  let done: Record<string, string>;
  for (;;) {
    done = await api(`/api/v1/dataset/${datasetId}/export_status?export_task_id=${id}`);
    if (done.status !== 'PENDING') break;
    if (performance.now() - start > timeoutS * 1000) throw new Error(`export ${query}: still PENDING after ${timeoutS} s`);
    await sleep(20);
  }
  const seconds = (performance.now() - start) / 1000;
  if (done.status !== 'COMPLETED') throw new Error(`export ${query}: ${done.status} ${done.result_message}`);
  const archiveBytes = Number((await fetch(done.download_uri!, { method: 'HEAD' })).headers.get('content-length'));
  return { seconds, archiveBytes, rssBefore, rssPeak: rss.peak(start) };
}

/** `count` blobs of incompressible bytes the size of a 1024x768 JPEG (120-140 KB; a ZIP stores them as they are either way). */
export async function putRandomImageBlobs(loupe: Loupe, count: number): Promise<Array<{ hash: string; size: number }>> {
  const blobs: Array<{ hash: string; size: number }> = [];
  for (let i = 0; i < count; i++) blobs.push(await loupe.container.blobs.putBuffer(randomBytes(120_000 + ((i * 7919) % 20_000))));
  return blobs;
}

/**
 * Seconds to stream the blobs' files from disk to nowhere, one after another: like `cat`, or with `asTheExportReads`
 * each file in one read of its exact size, the way the export reads it.
 */
export async function rawReadSeconds(loupe: Loupe, blobs: Array<{ hash: string; size: number }>, asTheExportReads = false): Promise<number> {
  const store = loupe.container.blobs as FsBlobStore;
  global.gc?.();
  const start = performance.now();
  for (const blob of blobs) {
    const [range, chunkBytes] = asTheExportReads ? readOf(blob.size) : [{}, undefined];
    await pipeline(createReadStream(store.pathOf(blob.hash), { ...range, highWaterMark: chunkBytes }), devNull());
  }
  return (performance.now() - start) / 1000;
}
