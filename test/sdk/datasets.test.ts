import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Loupe, type UploadProgress, type UploadState, WaitError, walkMedia } from '../../sdk/src/index.js';
import { PHOTOS, generatedJpegs } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { readZip } from '../support/zip.js';

let server: TestServer;
let owner: TestUser;
let loupe: Loupe;
let tmp: string;
let photosId: string;
let resumedId: string;
let errorId: string;

/** A folder of files named as given, holding the bytes given. */
function folder(name: string, files: Record<string, Buffer | string>): string {
  const dir = path.join(tmp, name);
  for (const [file, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), bytes);
  }
  return dir;
}
const photo = (name: string) => fs.readFileSync(path.join(PHOTOS, name));
const all = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sdk-'));
  server = await startTestServer();
  owner = await server.createUser();
  loupe = new Loupe({ url: server.url, apiKey: owner.api_key, apiSecret: owner.api_secret });
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('walkMedia', () => {
  it('keeps image and video files by name and content, recursively, and says why it skipped the rest', async () => {
    const dir = folder('walk', {
      'a.jpg': photo('dog.jpg'),
      'nested/deeper/b.PNG': photo('coffee.png'),
      'notes.txt': 'hello',
      'fake.jpg': 'not a jpeg at all',
      'photo-without-extension': photo('kite.jpg'),
      'empty.png': '',
    });
    const walk = await walkMedia(dir);
    expect(walk.files.map((f) => f.relative)).toEqual(['a.jpg', 'nested/deeper/b.PNG']);
    expect(walk.files[0]).toEqual({ path: path.join(dir, 'a.jpg'), relative: 'a.jpg', size: photo('dog.jpg').length });
    expect(walk.skipped).toEqual([
      { path: path.join(dir, 'empty.png'), reason: 'empty file' },
      { path: path.join(dir, 'fake.jpg'), reason: 'content is not an image or video' },
      { path: path.join(dir, 'notes.txt'), reason: '.txt is not an image or video extension' },
      { path: path.join(dir, 'photo-without-extension'), reason: 'no file extension' },
    ]);
  });
});

describe('createDataset', () => {
  it('refuses a folder without media before it makes a dataset', async () => {
    const dir = folder('no-media', { 'notes.txt': 'hello' });
    await expect(loupe.createDataset('sdk nothing', dir)).rejects.toThrow('no image or video files found (1 skipped)');
    const names = [];
    for await (const d of loupe.datasets()) names.push(d.display_name);
    expect(names).not.toContain('sdk nothing');
  });

  it('uploads a folder in batches into one transaction, reports progress and state, and waits for READY', async () => {
    const dir = folder('photos', { 'dog.jpg': photo('dog.jpg'), 'horses.jpg': photo('horses.jpg'), 'more/kite.jpg': photo('kite.jpg'), 'readme.md': '# not media' });
    const progress: UploadProgress[] = [];
    const states: UploadState[] = [];
    const seen: Array<[number, string]> = [];
    const dataset = await loupe.createDataset('sdk photos', dir, {
      batchSize: 2,
      onProgress: (p) => progress.push(p),
      onState: (s) => void states.push(s),
      wait: { intervalMs: 10, onProgress: (d) => seen.push([Date.now(), d.status_new]) },
    });
    photosId = dataset.id;
    expect(dataset).toMatchObject({ display_name: 'sdk photos', status_new: 'READY', n_images: 3, n_videos: 0, fatal_error_msg: null });
    expect(seen.at(-1)![1]).toBe('READY');
    // Asked to poll every 10 ms, the waiter still reads no more than once a second.
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0] - seen[i - 1]![0]).toBeGreaterThanOrEqual(1000);
    const bytes = ['dog.jpg', 'horses.jpg', 'kite.jpg'].reduce((sum, name) => sum + photo(name).length, 0);
    // One report as each batch is accepted, and others while a batch is on its way, counting the bytes read so far.
    const accepted = progress.filter((p, i) => i === 0 || p.filesDone !== progress[i - 1]!.filesDone);
    expect(accepted.map((p) => [p.filesDone, p.filesTotal, p.skipped])).toEqual([[0, 3, 1], [2, 3, 1], [3, 3, 1]]);
    const firstBatch = photo('dog.jpg').length + photo('horses.jpg').length;
    expect(progress.some((p) => p.filesDone === 0 && p.bytesDone > 0 && p.bytesDone < firstBatch)).toBe(true);
    expect(progress.map((p) => p.bytesDone)).toEqual(progress.map((p) => p.bytesDone).sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ bytesDone: bytes, bytesTotal: bytes, etaSeconds: 0 });
    expect(progress.at(-1)!.rateBytesPerSecond).toBeGreaterThan(0);
    expect(states.map((s) => [s.sent, s.processed ?? false])).toEqual([
      [[], false],
      [['dog.jpg', 'horses.jpg'], false],
      [['dog.jpg', 'horses.jpg', 'more/kite.jpg'], false],
      [['dog.jpg', 'horses.jpg', 'more/kite.jpg'], true],
    ]);
    expect(new Set(states.map((s) => `${s.datasetId}/${s.transId}`))).toEqual(new Set([`${dataset.id}/${states[0]!.transId}`]));
  }, 90_000);

  it('stopped after its first batch, resumes from the saved state and sends no file twice', async () => {
    const files = await generatedJpegs(3);
    const dir = folder('resumable', Object.fromEntries(files.map((f) => [f.name, f.bytes])));
    const stop = new AbortController();
    let saved: UploadState | undefined;
    const first = loupe.createDataset('sdk resumed', dir, {
      batchSize: 1,
      signal: stop.signal,
      onState: (s) => {
        saved = s;
        if (s.sent.length === 1) stop.abort();
      },
    });
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(saved!.sent).toEqual(['generated-0.jpg']);

    const progress: UploadProgress[] = [];
    const dataset = await loupe.createDataset('ignored when resuming', dir, { batchSize: 1, state: saved!, onProgress: (p) => progress.push(p), wait: true });
    resumedId = dataset.id;
    expect(dataset).toMatchObject({ id: saved!.datasetId, display_name: 'sdk resumed', status_new: 'READY', n_images: 3 });
    expect([...new Set(progress.map((p) => p.filesDone))]).toEqual([1, 2, 3]);
    const media = await all(loupe.media(dataset.id, { pageSize: 2 }));
    expect(media.map((m) => m.file_name).sort()).toEqual(['generated-0.jpg', 'generated-1.jpg', 'generated-2.jpg']);
  });

  it('waitForDataset fails on ERROR with the server detail', async () => {
    const corrupt = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(500, 1)]);
    const dir = folder('broken', { 'only-broken.png': corrupt });
    const failed = await loupe.createDataset('sdk broken', dir, { wait: true }).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(WaitError);
    const error = failed as WaitError;
    errorId = (error.value as { id: string }).id;
    const dataset = await loupe.dataset(errorId);
    expect(dataset.fatal_error_msg).toMatch(/^No usable media: 1 file\(s\) could not be decoded \(only-broken.png: /);
    expect(error).toMatchObject({ state: 'ERROR', detail: dataset.fatal_error_msg, message: dataset.fatal_error_msg, path: `/api/v1/dataset/${errorId}` });
  });
});

describe('the rest of a dataset’s life', () => {
  it('addMedia sends one request per filesPerRequest files, follows each MEDIA_ADDITION task, and a reindex brings the dataset back to READY', async () => {
    const extra = await generatedJpegs(3);
    const dir = folder('extra', { 'extra-0.jpg': extra[0]!.bytes, 'extra-1.jpg': extra[1]!.bytes, 'extra-2.jpg': extra[2]!.bytes, 'skip.txt': 'x' });
    const progress: UploadProgress[] = [];
    const added = await loupe.addMedia(photosId, dir, { wait: true, filesPerRequest: 2, onProgress: (p) => progress.push(p) });
    expect(added.taskIds).toHaveLength(2);
    expect(added.taskId).toBe(added.taskIds[1]);
    expect(added.dataset).toMatchObject({ status_new: 'PARTIAL INDEX', n_images: 6 });
    for (const taskId of added.taskIds) {
      expect(await loupe.task(taskId)).toMatchObject({ task_id: taskId, task_type: 'MEDIA_ADDITION', status: 'COMPLETED', dataset_id: photosId });
    }
    const bytes = extra.reduce((n, f) => n + f.bytes.length, 0);
    expect(progress.at(-1)).toMatchObject({ filesDone: 3, filesTotal: 3, skipped: 1, bytesDone: bytes });
    // One bar from 0 to all: the second request goes on from where the first stopped.
    expect(progress.map((p) => p.filesDone)).toEqual([...progress.map((p) => p.filesDone)].sort((a, b) => a - b));
    const reindexed = await loupe.reindex(photosId, { wait: true });
    expect(await loupe.task(reindexed.taskId!)).toMatchObject({ task_type: 'REINDEX', status: 'COMPLETED' });
    expect(await loupe.dataset(photosId)).toMatchObject({ status_new: 'READY', n_images: 6 });
  });

  it('clones a snapshot into a new dataset named by its task', async () => {
    const snapshot = await loupe.createSnapshot(resumedId, { name: 'before clone' });
    expect(snapshot).toMatchObject({ snapshot_name: 'before clone', is_current: true });
    const clone = await loupe.cloneSnapshot(resumedId, snapshot.snapshot_id, { wait: true });
    expect(clone.datasetId).not.toBe(resumedId);
    expect(await loupe.waitForDataset(clone.datasetId!)).toMatchObject({ display_name: 'sdk resumed (cloned)', n_images: 3 });
  });

  it('iterates every page of datasets, media, tasks and clusters', async () => {
    const datasets = await all(loupe.datasets({ pageSize: 1 }));
    expect(datasets.length).toBe(4);
    expect(datasets.map((d) => d.id)).toEqual(expect.arrayContaining([photosId, resumedId, errorId]));
    const media = await all(loupe.media(photosId, { pageSize: 4 }));
    expect(new Set(media.map((m) => m.media_id)).size).toBe(6);
    const tasks = await all(loupe.tasks({ page_size: 5 }));
    expect(tasks.length).toBe(7);
    expect(new Set(tasks.map((t) => t.task_type))).toEqual(new Set(['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'SNAPSHOT_CLONE']));
    const page = await loupe.explore(photosId, { level: 4 });
    const clusters = await all(loupe.clusters(photosId, { level: 4 }));
    expect(clusters.map((c) => c.cluster_id)).toEqual(page.clusters.map((c) => c.cluster_id));
    expect(clusters.length).toBe(page.total_clusters);
  });

  it('explores around an uploaded image', async () => {
    const page = await loupe.similarToImage(photosId, path.join(PHOTOS, 'dog.jpg'));
    expect(page.clusters[0]!.previews[0]).toMatchObject({ file_name: 'dog.jpg' });
    // The three noise images added above look alike; the real photos have no near-duplicate.
    const groups = await all(loupe.duplicateGroups(photosId));
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.flatMap((g) => g.previews.map((p) => p.file_name)).filter((name) => !name.startsWith('extra-'))).toEqual([]);
  });

  it('exports, streams the ZIP to a file through .part, and the archive opens', async () => {
    const out = path.join(tmp, 'export.zip');
    const progress: Array<[number, number | null]> = [];
    const result = await loupe.export(resumedId, { format: 'json', includeImages: true, path: out, onProgress: (done, total) => progress.push([done, total]) });
    expect(result).toEqual({ path: out, bytes: fs.statSync(out).size });
    expect(fs.existsSync(`${out}.part`)).toBe(false);
    expect(progress.at(-1)).toEqual([result.bytes, result.bytes]);
    const entries = await readZip(fs.readFileSync(out));
    expect([...entries.keys()].filter((name) => name.startsWith('images/')).length).toBe(3);
    expect(JSON.parse(entries.get('metadata.json')!.bytes.toString('utf8')).media_items.map((m: { image_filename: string }) => m.image_filename).sort()).toEqual(['generated-0.jpg', 'generated-1.jpg', 'generated-2.jpg']);
  });

  it('surfaces the server detail verbatim as a LoupeError', async () => {
    await expect(loupe.startExport(errorId, { format: 'json' })).rejects.toMatchObject({ name: 'LoupeError', status: 409, method: 'GET' });
    await expect(loupe.dataset('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, detail: 'Dataset not found', message: 'Dataset not found' });
  });
});
