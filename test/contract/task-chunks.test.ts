import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChunkRange, chunkState, claimChunk, idRanges, planChunks, runChunk } from '../../src/jobs/task-chunks.js';
import { IngestionRepo } from '../../src/modules/ingestion/ingestion.repo.js';
import { ImageRowWriter } from '../../src/modules/media/image-rows.js';
import { createDataset, generatedJpegs, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let owner: TestUser;
const db = () => server.loupe.container.database.db;
const PHOTOS = ['dog.jpg', 'horses.jpg', 'person.jpg', 'kite.jpg', 'coffee.png', 'chelsea.png', 'astronaut.png'];

beforeAll(async () => {
  // Chunks of two files, and a claim taken for dead after 2 s without a heartbeat.
  server = await startTestServer({ env: { TASK_CHUNK_ITEMS: '2', TASK_CHUNK_STALE_SECONDS: '2', WORKER_CONCURRENCY: '3' } });
  owner = await server.createUser();
}, 60_000);
afterAll(() => server?.close());

describe('chunked stages: the media stage in chunks any worker may take', () => {
  it('splits a batch into chunks, takes them from queued jobs and the task itself, and brings every file in once', async () => {
    const { datasetId, taskId, dataset } = await createDataset(server, owner, 'chunked', [PHOTOS.map(photo)]);
    expect([dataset.status_new, dataset.n_images]).toEqual(['READY', 7]);
    const chunks = await db().selectFrom('task_chunks').selectAll().where('task_id', '=', taskId).orderBy('chunk').execute();
    const filesIn = async (c: { first_id: string; last_id: string }) =>
      (await db().selectFrom('upload_files').select('id').where('dataset_id', '=', datasetId).where('id', '>=', c.first_id).where('id', '<=', c.last_id).execute()).length;
    expect(await Promise.all(chunks.map(filesIn))).toEqual([2, 2, 2, 1]);
    expect(chunks.every((c) => c.done_at !== null && c.error === null)).toBe(true);
    // Claimed by more than one claimer: the task's own run ('task:…') and the queued jobs ('job:…').
    const claimers = new Set(chunks.map((c) => c.claimed_by!.split(':')[0]));
    expect(claimers.has('job')).toBe(true);
    const { rows } = await sql<{ files: number; linked: number; media: number }>`select count(*)::int as files, count(distinct media_id)::int as linked,
      (select count(*)::int from media) as media from upload_files where dataset_id = ${datasetId}::uuid`.execute(db());
    expect(rows[0]).toEqual({ files: 7, linked: 7, media: 7 });
    const task = await db().selectFrom('tasks').select(['status', 'progress_percentage']).where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'COMPLETED', progress_percentage: 100 });
  }, 120_000);

  it('hands a chunk whose claimer stopped beating to the next claimer, and the first then loses it', async () => {
    const files = await generatedJpegs(5);
    const { taskId } = await createDataset(server, owner, 'claims', [files]);
    const ids = (await db().selectFrom('upload_files').select('upload_files.id').innerJoin('tasks', (j) => j.onRef('tasks.dataset_id', '=', 'upload_files.dataset_id')).where('tasks.id', '=', taskId).orderBy('upload_files.id').execute()).map((r) => r.id).sort();
    // A later run of the same task, planned by hand: its chunks are new, the first run's are dropped.
    const run = { taskId, attempt: 99, kind: 'media' as const };
    expect(await planChunks(db(), run, async () => idRanges(ids, 2))).toBe(3);
    expect(await planChunks(db(), run, async () => idRanges(ids, 1))).toBe(3);
    expect(await db().selectFrom('task_chunks').select('attempt').distinct().where('task_id', '=', taskId).execute()).toEqual([{ attempt: 99 }]);

    const first = await claimChunk(db(), run, 'a', 2);
    const second = await claimChunk(db(), run, 'b', 2);
    expect([first?.chunk, second?.chunk]).toEqual([0, 1]);
    expect(first).toEqual({ chunk: 0, first_id: ids[0], last_id: ids[1] });
    expect((await claimChunk(db(), run, 'c', 2))?.chunk).toBe(2);
    expect(await claimChunk(db(), run, 'd', 2)).toBeNull();
    // 'a' stops beating: after the stale time its chunk goes to the next claimer.
    await sql`update task_chunks set heartbeat_at = now() - interval '5 seconds' where task_id = ${taskId}::uuid and claimed_by = 'a'`.execute(db());
    const taken = await claimChunk(db(), run, 'e', 2);
    expect(taken).toEqual(first);
    // 'a' coming back finds the claim gone: it does no work and leaves the chunk to 'e', unfinished.
    const worked: ChunkRange[] = [];
    const work = async (range: ChunkRange) => void worked.push(range);
    const deps = { db: db(), staleSeconds: 1 };
    await runChunk(deps, run, first!, 'a', new AbortController().signal, work);
    expect(worked).toEqual([]);
    const row = await db().selectFrom('task_chunks').selectAll().where('task_id', '=', taskId).where('chunk', '=', 0).executeTakeFirstOrThrow();
    expect([row.claimed_by, row.done_at]).toEqual(['e', null]);
    await runChunk(deps, run, taken!, 'e', new AbortController().signal, work);
    expect(worked).toEqual([{ first: ids[0], last: ids[1] }]);
    expect(await chunkState(db(), run)).toEqual({ total: 3, done: 1, error: null });
    // A work that fails marks its chunk done with the error, which the run then reports.
    await expect(runChunk(deps, run, second!, 'b', new AbortController().signal, async () => { throw new Error('disk full'); })).rejects.toThrow('disk full');
    expect(await chunkState(db(), run)).toEqual({ total: 3, done: 2, error: 'disk full' });
  }, 120_000);

  it('fails the task with the error that stopped a chunk, whichever worker ran it', async () => {
    const created = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=broken');
    const datasetId = created.body.dataset_id as string;
    const transId = await openTransaction(server, owner, datasetId);
    expect((await upload(server, owner, datasetId, transId, (await generatedJpegs(5)).slice(0, 5))).status).toBe(202);
    // One stored file vanishes before processing (a lost disk, a bucket emptied by hand).
    const gone = await db().selectFrom('upload_files').select(['id', 'blob_hash']).where('dataset_id', '=', datasetId).orderBy('id').limit(1).executeTakeFirstOrThrow();
    await server.loupe.container.blobs.delete(gone.blob_hash);
    const processed = await processFiles(server, owner, datasetId, transId);
    expect(processed.status).toBe(202);
    const dataset = await waitForDataset(server, owner, datasetId, ['READY', 'ERROR']);
    expect(dataset.status_new).toBe('ERROR');
    const task = await db().selectFrom('tasks').select(['status', 'error_message']).where('id', '=', processed.body.task_id).executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'FAILED', error_message: `blob ${gone.blob_hash} not found` });
    const chunks = await db().selectFrom('task_chunks').select(['error']).where('task_id', '=', processed.body.task_id).where('error', 'is not', null).execute();
    expect(chunks).toEqual([{ error: `blob ${gone.blob_hash} not found` }]);
  }, 120_000);

  it('writes image rows in batches, each file linked once: a file another run linked first keeps that media', async () => {
    const created = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=batched-rows');
    const datasetId = created.body.dataset_id as string;
    const transId = await openTransaction(server, owner, datasetId);
    expect((await upload(server, owner, datasetId, transId, await generatedJpegs(3))).status).toBe(202);
    const files = await db().selectFrom('upload_files').selectAll().where('dataset_id', '=', datasetId).orderBy('id').execute();
    const { repos } = server.loupe.container;
    const rowOf = (file: (typeof files)[number]) => ({
      fileId: file.id,
      media: { blob_hash: file.blob_hash, parent_media_id: null, frame_timestamp: null, file_name: file.file_name, format: file.format, mime: file.mime, size: file.size, media_type: 'IMAGE' as const, duration_seconds: null },
      embedding: { model: 'test@1', vector: Float32Array.from([1, 0, 0]) },
    });
    let written = 0;
    const writer = () => new ImageRowWriter({ db: db(), media: repos.media, ingestion: new IngestionRepo(db()) }, async () => void written++);
    const linkOf = async () => new Map((await db().selectFrom('upload_files').select(['id', 'media_id']).where('dataset_id', '=', datasetId).execute()).map((r) => [r.id, r.media_id]));

    const first = writer();
    await first.add(rowOf(files[0]!));
    await first.add(rowOf(files[1]!));
    await first.drain();
    expect(written).toBe(2);
    const before = await linkOf();
    expect([before.get(files[0]!.id), before.get(files[1]!.id), before.get(files[2]!.id)].map((id) => id !== null)).toEqual([true, true, false]);

    // A second run (a chunk taken over) brings file 0 again with file 2: file 0 keeps the first run's media.
    const second = writer();
    await second.add(rowOf(files[0]!));
    await second.add(rowOf(files[2]!));
    await second.drain();
    expect(written).toBe(4);
    const after = await linkOf();
    expect(after.get(files[0]!.id)).toBe(before.get(files[0]!.id));
    expect(after.get(files[2]!.id)).not.toBeNull();
    const mediaIds = [...after.values()] as string[];
    const media = await db().selectFrom('media').select('id').where('file_name', 'in', files.map((f) => f.file_name)).where('blob_hash', 'in', files.map((f) => f.blob_hash)).execute();
    expect(media.map((m) => m.id).sort()).toEqual([...mediaIds].sort());
    const embeddings = await db().selectFrom('media_embeddings').select('media_id').where('media_id', 'in', mediaIds).execute();
    expect(embeddings).toHaveLength(3);

    // A batch that cannot be written fails the writer: later rows are refused with the same error.
    const broken = writer();
    await broken.add({ ...rowOf(files[1]!), fileId: 'not-a-uuid' });
    await expect(broken.drain()).rejects.toThrow();
    await expect(broken.add(rowOf(files[1]!))).rejects.toThrow();
  }, 120_000);
});
