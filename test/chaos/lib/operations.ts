import fs from 'node:fs';
import path from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { writeZip } from '../../archives/build-archives.js';
import { type UploadFile, form } from '../../support/ingest.js';
import { type ApiResponse, waitFor } from '../../support/server.js';
import { readZip } from '../../support/zip.js';
import { printDataset, sha256 } from './observe.js';
import type { ChaosServer } from './server.js';

export interface Context {
  server: ChaosServer;
  /** sha256 of every file sent, by file name (each name is sent with one content only). */
  sent: Map<string, string>;
  /** A READY dataset and its snapshot, cloned for each operation's own dataset. */
  base: { id: string; snapshotId: string; files: UploadFile[] };
  /** Batches for add_media, one per source, each with its own file names. */
  batches: { files: UploadFile[]; archive: Buffer; s3Uri: string };
  /** The fake OpenAI-compatible captioner's model id. */
  captioner: string;
  /** Datasets already handed to a setup, so concurrent setups never take the same clone. */
  claimed: Set<string>;
  /** Operations' working files. */
  tmp: string;
}

/** What a setup made: the dataset the operation changes, and anything its start needs. */
export interface Subject {
  id: string;
  data?: Record<string, unknown>;
}

export interface Operation {
  name: string;
  /** Makes the operation's dataset; runs with the server up, never killed. */
  setup(ctx: Context): Promise<Subject>;
  /** Sends the request(s) that start the operation; a kill may cut them off. */
  start(ctx: Context, subject: Subject): Promise<void>;
  /** After the restart: waits for what is not a task (an export job) to end and returns what the print should add. */
  observe?(ctx: Context, subject: Subject): Promise<unknown>;
}

async function expectStatus(res: Promise<ApiResponse>, status: number, what: string): Promise<ApiResponse> {
  const answered = await res;
  if (answered.status !== status) throw new Error(`${what}: ${answered.status} ${answered.text}`);
  return answered;
}

const datasetOf = async (server: ChaosServer, id: string) => (await server.api('GET', `/api/v1/dataset/${id}`)).body;

export function waitStatus(server: ChaosServer, id: string, statuses: string[], timeout = 120_000) {
  return waitFor(
    async () => {
      const d = await datasetOf(server, id);
      if (d.status_new === 'ERROR' && !statuses.includes('ERROR')) throw new Error(`dataset ${id} ERROR: ${d.fatal_error_msg}`);
      return statuses.includes(d.status_new) ? d : undefined;
    },
    { timeout, interval: 200, what: `dataset ${statuses.join(' or ')}` },
  );
}

/** A fresh, READY copy of the base dataset named after the operation. */
export async function cloneBase(ctx: Context, name: string): Promise<string> {
  const { server, base } = ctx;
  await expectStatus(server.api('POST', `/api/v1/dataset/${base.id}/snapshot/${base.snapshotId}/clone`), 202, 'clone the base');
  const id = await waitFor(
    async () => {
      const all = (await server.api('GET', '/api/v1/datasets?limit=1000')).body as Array<{ id: string; source_dataset_id: string | null; status_new: string }>;
      const ready = all.find((d) => d.source_dataset_id === base.id && d.status_new === 'READY' && !ctx.claimed.has(d.id));
      if (ready) ctx.claimed.add(ready.id);
      return ready?.id;
    },
    { timeout: 120_000, interval: 200, what: 'a clone of the base' },
  );
  await expectStatus(server.api('PATCH', `/api/v1/dataset/${id}`, { display_name: `chaos ${name}` }), 200, 'rename the clone');
  return id;
}

const mediaIds = async (server: ChaosServer, id: string) =>
  ((await server.api('GET', `/api/v1/dataset/${id}/media?limit=500`)).body.media as Array<{ media_id: string; file_name: string }>);

function field(name: string, value: string): FormData {
  const body = new FormData();
  body.append(name, value);
  return body;
}

const addMedia = (ctx: Context, id: string, body: FormData) => expectStatus(ctx.server.api('POST', `/api/v1/dataset/${id}/add_media`, body), 202, 'add_media');

const onClone = (name: string, start: Operation['start'], more: Pick<Operation, 'observe'> = {}): Operation => ({
  name,
  setup: async (ctx) => ({ id: await cloneBase(ctx, name) }),
  start,
  ...more,
});

export const OPERATIONS: Operation[] = [
  {
    name: 'creation',
    async setup(ctx) {
      const { server } = ctx;
      const id = (await expectStatus(server.api('GET', '/api/v1/ingestion/new_dataset?dataset_name=chaos%20creation'), 200, 'new_dataset')).body.dataset_id as string;
      const transId = (await expectStatus(server.api('GET', `/api/v1/ingestion/${id}/data_files`), 200, 'data_files')).body.trans_id as number;
      await expectStatus(server.api('POST', `/api/v1/ingestion/${id}/data_files/${transId}`, form(ctx.base.files)), 202, 'upload');
      return { id, data: { transId } };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/ingestion/${s.id}/process_files/${s.data!.transId}`), 202, 'process_files')),
  },
  onClone('add_media_files', (ctx, s) => addMedia(ctx, s.id, form(ctx.batches.files)).then(() => {})),
  onClone('add_media_archive', (ctx, s) => addMedia(ctx, s.id, form([{ name: 'batch.zip', bytes: ctx.batches.archive, field: 'archive' }])).then(() => {})),
  onClone('add_media_s3', (ctx, s) => addMedia(ctx, s.id, field('s3_uri', ctx.batches.s3Uri)).then(() => {})),
  {
    name: 'reindex',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'reindex');
      await addMedia(ctx, id, form(ctx.batches.files.slice(0, 1)));
      await waitStatus(ctx.server, id, ['PARTIAL INDEX']);
      return { id };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/reindex`), 202, 'reindex')),
  },
  {
    name: 'restore',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'restore');
      const snapshotId = (await ctx.server.api('GET', `/api/v1/dataset/${id}/snapshot`)).body[0].snapshot_id as string;
      const media = await mediaIds(ctx.server, id);
      await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${id}/media/tags`, { tags: ['to-undo'], media_ids: media.map((m) => m.media_id) }), 200, 'tags');
      return { id, data: { snapshotId } };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/snapshot/${s.data!.snapshotId}/restore`), 202, 'restore')),
  },
  {
    name: 'clone',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'clone');
      return { id, data: { snapshotId: (await ctx.server.api('GET', `/api/v1/dataset/${id}/snapshot`)).body[0].snapshot_id } };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/snapshot/${s.data!.snapshotId}/clone`), 202, 'clone')),
  },
  onClone(
    'export',
    async (ctx, s) => {
      const res = await expectStatus(ctx.server.api('GET', `/api/v1/dataset/${s.id}/export_context_async?file_name=chaos&export_format=json&include_images=true`), 200, 'export');
      s.data = { exportId: res.body.id };
    },
    { observe: exportOutcome },
  ),
  onClone('enrichment', async (ctx, s) => {
    await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/enrich_dataset`, { enrichment_models: { CAPTION_IMAGES: ctx.captioner } }), 200, 'enrich_dataset');
  }),
  onClone('custom_metadata', async (ctx, s) => {
    const csv = ['file_name,weather,score', ...ctx.base.files.map((f, i) => `${f.name},sunny-${i},${i + 0.5}`)].join('\n');
    const body = new FormData();
    body.append('file', new Blob([csv]), 'fields.csv');
    await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/custom_metadata`, body), 202, 'custom_metadata');
  }),
  {
    name: 'edit_tags',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'edit_tags');
      return { id, data: { media: (await mediaIds(ctx.server, id)).map((m) => m.media_id) } };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/media/tags`, { tags: ['chaos', 'kept'], media_ids: s.data!.media }), 200, 'tags')),
  },
  {
    name: 'edit_label',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'edit_label');
      return { id, data: { media: (await mediaIds(ctx.server, id)).map((m) => m.media_id) } };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('PUT', `/api/v1/dataset/${s.id}/media/label`, { label: 'thing', media_ids: s.data!.media }), 200, 'label')),
  },
  {
    name: 'label_propagation',
    async setup(ctx) {
      const id = await cloneBase(ctx, 'label_propagation');
      const dog = (await mediaIds(ctx.server, id)).find((m) => m.file_name === 'dog.jpg')!;
      await expectStatus(ctx.server.api('PUT', `/api/v1/dataset/${id}/media/label`, { label: 'dog', media_ids: [dog.media_id] }), 200, 'label');
      return { id };
    },
    start: async (ctx, s) => void (await expectStatus(ctx.server.api('POST', `/api/v1/dataset/${s.id}/labels/propagate`, { threshold: 4 }), 202, 'propagate')),
  },
];

/** The export job's end, and whether the ZIP it offers holds every image with the bytes sent. */
async function exportOutcome(ctx: Context, s: Subject): Promise<unknown> {
  const exportId = s.data?.exportId as string | undefined;
  if (!exportId) return { export: 'not started' };
  const done = await waitFor(
    async () => {
      const res = await ctx.server.api('GET', `/api/v1/dataset/${s.id}/export_status?export_task_id=${exportId}`);
      return ['COMPLETED', 'FAILED', 'REJECTED'].includes(res.body?.status) ? res.body : undefined;
    },
    { timeout: 120_000, interval: 200, what: 'the export to end' },
  );
  if (done.status !== 'COMPLETED') return { export: done.status };
  const zip = await readZip(Buffer.from(await (await fetch(done.download_uri)).arrayBuffer()));
  const images = [...zip.values()].filter((e) => ctx.sent.has(path.basename(e.name)));
  const bad = images.filter((e) => sha256(e.bytes) !== ctx.sent.get(path.basename(e.name))).map((e) => e.name);
  const expected = (await printDataset(ctx.server, s.id)).media.length;
  return { export: done.status, images: images.length === expected ? 'all' : `${images.length} of ${expected}`, bad };
}

/** The base dataset's files, the add_media batches (files, zip, S3 folder), each under its own names. */
export async function prepareFiles(tmp: string, s3: S3Client, photos: UploadFile[], generated: UploadFile[]) {
  const sent = new Map<string, string>();
  const named = (prefix: string, files: UploadFile[]) => files.map((f, i) => ({ name: `${prefix}-${i}.jpg`, bytes: f.bytes }));
  const files = named('files', generated.slice(0, 3));
  const zipped = named('archive', generated.slice(3, 6));
  const inS3 = named('s3', generated.slice(6, 9));
  const zip = path.join(tmp, 'batch.zip');
  await writeZip(zip, zipped.map((f) => ({ name: `batch/${f.name}`, data: f.bytes })));
  for (const f of inS3) await s3.send(new PutObjectCommand({ Bucket: 'media', Key: `chaos/${f.name}`, Body: f.bytes }));
  for (const f of [...photos, ...files, ...zipped, ...inS3]) sent.set(f.name, sha256(f.bytes));
  return { sent, batches: { files, archive: fs.readFileSync(zip), s3Uri: 's3://media/chaos/' } };
}
