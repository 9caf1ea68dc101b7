import { parquetReadObjects } from 'hyparquet';
import type { TestServer, TestUser } from './server.js';
import { waitFor } from './server.js';
import { type ZipEntry, readZip } from './zip.js';

/** A full export of the dataset, followed as clients do (status polling, download), unzipped. */
export async function exportArchive(server: TestServer, user: TestUser, datasetId: string, query: string): Promise<Map<string, ZipEntry>> {
  const started = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/export_context_async?${query}`);
  if (started.status !== 200) throw new Error(`export: ${started.status} ${started.text}`);
  const done = await waitFor(async () => {
    const res = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/export_status?export_task_id=${started.body.id}`);
    return ['COMPLETED', 'FAILED', 'REJECTED'].includes(res.body.status) ? res.body : undefined;
  }, 60_000, 'export finished');
  if (done.status !== 'COMPLETED') throw new Error(`export ended ${done.status}`);
  const res = await fetch(done.download_uri, { redirect: 'follow' });
  return readZip(Buffer.from(await res.arrayBuffer()));
}

/** The rows of a Parquet file held in memory. */
export function parquetRows(bytes: Buffer): Promise<Array<Record<string, any>>> {
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
}
