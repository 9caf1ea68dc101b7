import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ffmpegPath } from '../../src/adapters/media/ffmpeg.js';
import type { TestServer, TestUser } from './server.js';
import { waitFor } from './server.js';

export const PHOTOS = path.resolve('test/fixtures/photos');

export interface UploadFile {
  name: string;
  bytes: Buffer;
  field?: string;
}

export function photo(name: string): UploadFile {
  return { name, bytes: fs.readFileSync(path.join(PHOTOS, name)) };
}

/** Distinct small JPEGs (different colours and noise), for batches where content does not matter. */
export async function generatedJpegs(count: number, size = { width: 320, height: 240 }): Promise<UploadFile[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const bytes = await sharp({ create: { ...size, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
        .jpeg()
        .toBuffer();
      return { name: `generated-${i}.jpg`, bytes };
    }),
  );
}

/** A 3 s clip with two hard cuts (red, blue, green), so scene detection has something to find: three frames. */
export function threeSceneClip(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-clip-'));
  const out = path.join(dir, 'scenes.mp4');
  const colour = (c: string) => ['-f', 'lavfi', '-i', `color=c=${c}:s=160x120:d=1:r=10`];
  execFileSync(ffmpegPath(), ['-v', 'error', ...colour('red'), ...colour('blue'), ...colour('green'),
    '-filter_complex', '[0:v][1:v][2:v]concat=n=3:v=1[v]', '-map', '[v]', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', out]);
  try {
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function form(files: UploadFile[]): FormData {
  const body = new FormData();
  for (const f of files) body.append(f.field ?? 'files', new Blob([new Uint8Array(f.bytes)]), f.name);
  return body;
}

export async function openTransaction(server: TestServer, user: TestUser, datasetId: string): Promise<number> {
  const res = await server.api(user.token, 'GET', `/api/v1/ingestion/${datasetId}/data_files`);
  if (res.status !== 200) throw new Error(`data_files: ${res.status} ${res.text}`);
  return res.body.trans_id as number;
}

export const upload = (server: TestServer, user: TestUser, datasetId: string, transId: number, files: UploadFile[]) =>
  server.api(user.token, 'POST', `/api/v1/ingestion/${datasetId}/data_files/${transId}`, form(files));

export const processFiles = (server: TestServer, user: TestUser, datasetId: string, transId: number) =>
  server.api(user.token, 'POST', `/api/v1/ingestion/${datasetId}/process_files/${transId}`);

export function waitForDataset(server: TestServer, user: TestUser, datasetId: string, statuses: string[], timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}`);
      return statuses.includes(res.body?.status_new) ? res.body : undefined;
    },
    timeoutMs,
    `dataset ${statuses.join(' or ')}`,
  );
}

/** The documented client flow end to end: new dataset, one transaction, batches, process, poll. */
export async function createDataset(server: TestServer, user: TestUser, name: string, batches: UploadFile[][]) {
  const created = await server.api(user.token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=${encodeURIComponent(name)}`);
  const datasetId = created.body.dataset_id as string;
  const transId = await openTransaction(server, user, datasetId);
  for (const batch of batches) {
    const res = await upload(server, user, datasetId, transId, batch);
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${res.text}`);
  }
  const processed = await processFiles(server, user, datasetId, transId);
  if (processed.status !== 202) throw new Error(`process_files: ${processed.status} ${processed.text}`);
  const dataset = await waitForDataset(server, user, datasetId, ['READY', 'ERROR']);
  return { datasetId, transId, taskId: processed.body.task_id as string, dataset };
}
