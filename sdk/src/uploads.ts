import fs from 'node:fs';
import path from 'node:path';
import type { Transport } from './client.js';
import { ProgressMeter, type UploadProgress } from './progress.js';
import type { Dataset } from './types.js';
import { type MediaFile, type MediaWalk, collectMedia } from './walk.js';

/** Resumable upload state: saved after every accepted batch; given back, only what is left is sent. */
export interface UploadState {
  datasetId: string;
  transId: number;
  /** Relative paths (MediaFile.relative) the server has accepted. */
  sent: string[];
  /** Set once process_files was accepted: a resume then only waits. */
  processed?: boolean;
}

export interface CreateDatasetOptions {
  /** Files per upload request (default 50, as the API advises). */
  batchSize?: number;
  state?: UploadState;
  onState?: (state: UploadState) => void | Promise<void>;
  onProgress?: (progress: UploadProgress) => void;
  /** Called once with what the walk found, before anything is sent. */
  onWalk?: (walk: MediaWalk) => void;
  signal?: AbortSignal;
}

/** A multipart form whose files are read from disk as the request streams (fs.openAsBlob), built afresh per try. */
export async function mediaForm(files: MediaFile[], field: string, fields: Record<string, string> = {}): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(field, await fs.openAsBlob(file.path), path.basename(file.path));
  return form;
}

const sum = (files: MediaFile[]) => files.reduce((total, f) => total + f.size, 0);

/**
 * The same form as a byte stream that reports what the request has read, so progress moves within a batch. Node
 * encodes the form lazily (each file is read as the request is sent), so nothing is buffered.
 */
export async function countedForm(files: MediaFile[], field: string, fields: Record<string, string>, meter: ProgressMeter): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
  const encoded = new Response(await mediaForm(files, field, fields));
  const cap = sum(files);
  meter.restart();
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      meter.sending(chunk.byteLength, cap);
      controller.enqueue(chunk);
    },
  });
  return { body: encoded.body!.pipeThrough(counter), contentType: encoded.headers.get('content-type')! };
}

/** A `send` body factory for a counted form: each try encodes the form again and sets its boundary. */
function countedBody(files: MediaFile[], field: string, fields: Record<string, string>, meter: ProgressMeter, headers: Record<string, string>) {
  return async () => {
    const { body, contentType } = await countedForm(files, field, fields, meter);
    headers['content-type'] = contentType;
    return body;
  };
}

/**
 * new_dataset → data_files → one POST per batch → process_files, resuming from `state` when given. Returns the
 * dataset id and the DATASET_CREATION task id.
 */
export async function uploadDataset(t: Transport, name: string, folderOrFiles: string | string[], options: CreateDatasetOptions): Promise<{ datasetId: string; taskId: string | null }> {
  const walk = await collectMedia(folderOrFiles);
  options.onWalk?.(walk);
  // Checked before new_dataset, so an empty folder leaves no empty dataset behind.
  const resumed = options.state && (options.state.processed || options.state.sent.length > 0);
  if (walk.files.length === 0 && !resumed) throw new Error(`no image or video files found (${walk.skipped.length} skipped)`);
  const state: UploadState = options.state ? { ...options.state, sent: [...options.state.sent] } : await openUpload(t, name, options.signal);
  if (!options.state) await options.onState?.({ ...state, sent: [] });
  const sent = new Set(state.sent);
  const pending = walk.files.filter((f) => !sent.has(f.relative));
  const done = walk.files.filter((f) => sent.has(f.relative));
  const meter = new ProgressMeter(walk.files.length, sum(walk.files), walk.skipped.length, { files: done.length, bytes: sum(done) }, options.onProgress);
  meter.emit();
  const batchSize = Math.max(1, options.batchSize ?? 50);
  const route = `/api/v1/ingestion/${state.datasetId}/data_files/${state.transId}`;
  for (let i = 0; i < pending.length && !state.processed; i += batchSize) {
    const batch = pending.slice(i, i + batchSize);
    const headers: Record<string, string> = {};
    await t.send('POST', route, { body: countedBody(batch, 'files', {}, meter, headers), headers, signal: options.signal, mode: 'unsent' });
    state.sent.push(...batch.map((f) => f.relative));
    await options.onState?.({ ...state, sent: [...state.sent] });
    meter.add(batch.length, sum(batch));
  }
  if (state.processed) return { datasetId: state.datasetId, taskId: null };
  const processed = await t.json<{ task_id?: string }>('POST', `/api/v1/ingestion/${state.datasetId}/process_files/${state.transId}`, { signal: options.signal, mode: 'unsent' });
  state.processed = true;
  await options.onState?.({ ...state, sent: [...state.sent] });
  return { datasetId: state.datasetId, taskId: processed?.task_id ?? null };
}

async function openUpload(t: Transport, name: string, signal?: AbortSignal): Promise<UploadState> {
  // new_dataset is a GET that creates: sent once, never repeated after it may have acted.
  const created = await t.json<{ dataset_id: string }>('GET', '/api/v1/ingestion/new_dataset', { query: { dataset_name: name }, signal, mode: 'unsent' });
  const opened = await t.json<{ trans_id: number }>('GET', `/api/v1/ingestion/${created.dataset_id}/data_files`, { signal, mode: 'unsent' });
  return { datasetId: created.dataset_id, transId: opened.trans_id, sent: [] };
}

/** The task a 202 names in its Location header (/api/v1/tasks/{task_id}), or null when it names none. */
export function taskIdOf(response: Response): string | null {
  const location = response.headers.get('location');
  const match = location?.match(/\/tasks\/([^/?#]+)/);
  return match ? decodeURIComponent(match[1]!) : null;
}

export interface AddMediaSource {
  files?: MediaWalk;
  archive?: string;
  s3Uri?: string;
}

/** One add_media request (one MEDIA_ADDITION task); resolves with the task id from Location. */
export async function sendAddMedia(
  t: Transport,
  datasetId: string,
  source: AddMediaSource,
  options: { reindex?: boolean; onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; meter?: ProgressMeter },
): Promise<string | null> {
  const fields: Record<string, string> = options.reindex ? { auto_reindex: 'true' } : {};
  let files: MediaFile[] = [];
  let field = 'files';
  if (source.files) files = source.files.files;
  else if (source.archive) {
    field = 'archive';
    files = [{ path: path.resolve(source.archive), relative: path.basename(source.archive), size: fs.statSync(source.archive).size }];
  } else if (source.s3Uri) fields.s3_uri = source.s3Uri;
  if (source.files && files.length === 0) throw new Error(`no image or video files found (${source.files.skipped.length} skipped)`);
  // One meter may span several requests of a folder (Loupe.addMedia), so the caller's bar runs once from 0 to all.
  const meter = options.meter ?? new ProgressMeter(files.length, sum(files), source.files?.skipped.length ?? 0, undefined, options.onProgress);
  if (files.length && meter.filesDone === 0) meter.emit();
  const headers: Record<string, string> = {};
  const response = await t.send('POST', `/api/v1/dataset/${datasetId}/add_media`, { body: countedBody(files, field, fields, meter, headers), headers, signal: options.signal, mode: 'unsent' });
  await response.body?.cancel().catch(() => {});
  if (files.length) meter.add(files.length, sum(files));
  return taskIdOf(response);
}

export type { Dataset };
