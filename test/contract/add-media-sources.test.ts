import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTar, writeZip } from '../archives/build-archives.js';
import { startS3rver, type S3rverHandle } from '../sources/s3rver-server.js';
import { type UploadFile, createDataset, form, generatedJpegs, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

let server: TestServer;
let s3: S3rverHandle;
let owner: TestUser;
/** Read-only for every test: a dataset that one batch has made PARTIAL INDEX, for the refusals. */
let partialId: string;
let tmp: string;
let root: string;
/** A nested folder inside LOCAL_MEDIA_ROOTS with two media, a text file and symbolic links out of the roots. */
let set1: string;
let listener: pg.Client;
const notifications: Array<Record<string, unknown>> = [];

const db = () => server.loupe.container.database.db;
const addMedia = (id: string, body: FormData | URLSearchParams, headers?: Record<string, string>) =>
  server.api(headers ? null : owner.token, 'POST', `/api/v1/dataset/${id}/add_media`, body, headers);
const dataset = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}`)).body;
const waitPartial = (id: string) =>
  waitFor(async () => {
    const d = await dataset(id);
    if (d.status_new === 'ERROR') throw new Error(`dataset ERROR: ${d.fatal_error_msg}`);
    return d.status_new === 'PARTIAL INDEX' ? d : undefined;
  }, 60_000, 'PARTIAL INDEX');
const latestTask = async (id: string) => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=MEDIA_ADDITION`)).body.tasks[0];
const additionTasks = (id: string) => db().selectFrom('tasks').select(['id', 'config', 'status']).where('dataset_id', '=', id).where('task_type', '=', 'MEDIA_ADDITION').execute();
const mediaNames = async (id: string): Promise<string[]> =>
  (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}/media?limit=500`)).body.media.map((m: { file_name: string }) => m.file_name);
const processPath = (id: string, p: string) => server.api(owner.token, 'GET', `/api/v1/process/add_media?dataset_id=${id}&path=${encodeURIComponent(p)}`);
const file = (name: string, bytes: Buffer, field: string) => form([{ name, bytes, field }]);
const field = (name: string, value: string) => {
  const body = new FormData();
  body.append(name, value);
  return body;
};

/** A READY dataset of its own, one photo, for a test that adds media. */
async function readyDataset(): Promise<string> {
  const created = await createDataset(server, owner, 'sources', [[photo('kite.jpg')]]);
  if (created.dataset.status_new !== 'READY') throw new Error(`dataset creation ended ${created.dataset.status_new}: ${created.dataset.fatal_error_msg}`);
  return created.datasetId;
}

/** Sends one batch, waits for PARTIAL INDEX, and checks that exactly `added` media joined. */
async function addAndWait(id: string, body: FormData | URLSearchParams, added: number, headers?: Record<string, string>) {
  const before = (await dataset(id)).n_images;
  const res = await addMedia(id, body, headers);
  expect(res.status, res.text).toBe(202);
  const after = await waitPartial(id);
  expect(after.n_images).toBe(before + added);
  return after;
}

/** Each source's batch as its test sends it; the batch record test sends all six to one dataset. */
const addZip = async (id: string) => {
  const zip = path.join(tmp, 'photos.zip');
  await writeZip(
    zip,
    [
      { name: 'photos/a/dog.jpg', data: photo('dog.jpg').bytes },
      { name: 'photos/b/horses.jpg', data: photo('horses.jpg').bytes },
      { name: 'notes.txt', data: Buffer.from('just some notes') },
      { name: 'XX/evil.jpg', data: photo('dog.jpg').bytes },
    ],
    { 'XX/evil': '../evil' },
  );
  return addAndWait(id, file('photos.zip', fs.readFileSync(zip), 'archive'), 2);
};
const addTarGz = async (id: string) => {
  const tgz = path.join(tmp, 'one.tar.gz');
  await writeTar(tgz, [{ name: 'trip/day1/kite-again.jpg', data: (await generatedJpegs(1, { width: 200, height: 150 }))[0]!.bytes }], true);
  return addAndWait(id, file('one.tar.gz', fs.readFileSync(tgz), 'archive'), 1);
};
const addS3Folder = (id: string) => addAndWait(id, field('s3_uri', 's3://media/batch1/'), 3);
const addS3Manifest = (id: string) => addAndWait(id, field('s3_uri', 's3://media/manifests/two.txt'), 2);
const addLocalFolder = async (id: string) => {
  const before = (await dataset(id)).n_images;
  const res = await processPath(id, set1);
  expect(res.status, res.text).toBe(202);
  expect((await waitPartial(id)).n_images).toBe(before + 2);
};
const addByCookie = async (id: string) => {
  const login = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: owner.api_key, api_secret: owner.api_secret });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  expect(cookie).toMatch(/^loupe_session=/);
  const [one] = await generatedJpegs(1, { width: 160, height: 120 });
  await addAndWait(id, form([{ ...(one as UploadFile), name: 'by-cookie.jpg' }]), 1, { cookie });
};

beforeAll(async () => {
  s3 = await startS3rver();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-add-media-sources-'));
  root = path.join(tmp, 'root');
  fs.mkdirSync(root);
  server = await startTestServer({ env: { LOCAL_MEDIA_ROOTS: root, ...(s3.env as Record<string, string>) } });
  owner = await server.createUser();
  const admin = s3.admin();
  await admin.send(new CreateBucketCommand({ Bucket: 'media' }));
  const [g0, g1, g2, g3] = await generatedJpegs(4);
  const objects: Record<string, Buffer | string> = {
    'batch1/coffee.png': photo('coffee.png').bytes,
    'batch1/chelsea.png': photo('chelsea.png').bytes,
    'batch1/sub/astronaut.png': photo('astronaut.png').bytes,
    'batch1/readme.txt': 'not media',
    'extra/one.jpg': g0!.bytes,
    'extra/two.jpg': g1!.bytes,
    'extra/unlisted.jpg': g2!.bytes,
    'manifests/two.txt': 's3://media/extra/one.jpg\ns3://media/extra/two.jpg\n',
    'empty/readme.txt': 'nothing to see',
    'urlencoded/four.jpg': g3!.bytes,
  };
  for (const [Key, Body] of Object.entries(objects)) await admin.send(new PutObjectCommand({ Bucket: 'media', Key, Body }));
  admin.destroy();

  set1 = path.join(root, 'set1');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(set1, 'deep', 'deeper'), { recursive: true });
  fs.mkdirSync(outside);
  const [a, b, secret] = await generatedJpegs(3, { width: 240, height: 180 });
  fs.writeFileSync(path.join(set1, 'top.jpg'), a!.bytes);
  fs.writeFileSync(path.join(set1, 'deep', 'deeper', 'bottom.jpg'), b!.bytes);
  fs.writeFileSync(path.join(set1, 'deep', 'ignored.txt'), 'text');
  fs.writeFileSync(path.join(outside, 'secret.jpg'), secret!.bytes);
  fs.symlinkSync(outside, path.join(set1, 'deep', 'link'));
  fs.symlinkSync(path.join(outside, 'secret.jpg'), path.join(set1, 'secret-link.jpg'));

  listener = new pg.Client(server.loupe.container.database.connection);
  await listener.connect();
  listener.on('notification', (n) => notifications.push(JSON.parse(n.payload ?? '{}')));
  await listener.query('LISTEN loupe_media_batch_processed');

  partialId = await readyDataset();
  const [first] = await generatedJpegs(1, { width: 160, height: 120 });
  const res = await addMedia(partialId, form([first!]));
  if (res.status !== 202) throw new Error(`add_media: ${res.status} ${res.text}`);
  await waitPartial(partialId);
}, 120_000);

afterAll(async () => {
  await listener?.end();
  await server?.close();
  await s3?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('archive source', () => {
  it('adds the media of a zip with their folders, skipping non-media and unsafe entries', async () => {
    const datasetId = await readyDataset();
    await addZip(datasetId);
    const names = await mediaNames(datasetId);
    expect(names).toEqual(expect.arrayContaining(['photos/a/dog.jpg', 'photos/b/horses.jpg']));
    expect(names.some((n) => n.includes('evil'))).toBe(false);

    const task = await latestTask(datasetId);
    expect(task.status).toBe('COMPLETED');
    expect(task.status_message).toMatch(/Media added: 2 file\(s\).*2 archive entries skipped/);
    const config = (await additionTasks(datasetId)).find((t) => t.id === task.task_id)!.config as Record<string, any>;
    expect(config).toMatchObject({ source: 'archive', skipped_count: 2 });
    expect(config.skipped).toEqual(
      expect.arrayContaining([
        { path: 'notes.txt', reason: 'not an image or video' },
        { path: '../evil.jpg', reason: expect.stringMatching(/escapes/) },
      ]),
    );
  });

  it('adds the media of a .tar.gz', async () => {
    const datasetId = await readyDataset();
    await addTarGz(datasetId);
    expect(await mediaNames(datasetId)).toContain('trip/day1/kite-again.jpg');
  });

  it('refuses a zip bomb before starting anything', async () => {
    const bomb = path.join(tmp, 'bomb.zip');
    await writeZip(bomb, [{ name: 'zeros.jpg', data: Buffer.alloc(50 * 1024 * 1024) }]);
    const before = await dataset(partialId);
    const tasksBefore = (await additionTasks(partialId)).length;
    const res = await addMedia(partialId, file('bomb.zip', fs.readFileSync(bomb), 'archive'));
    expect(res.status).toBe(400);
    expect(res.body.detail.startsWith('Archive ')).toBe(true);
    expect(res.body.detail).toContain('refused');
    expect((await additionTasks(partialId)).length).toBe(tasksBefore);
    expect(await dataset(partialId)).toMatchObject({ n_images: before.n_images, status_new: before.status_new });
  });

  it('refuses an archive without media, a non-archive in archive, and an archive in files', async () => {
    const textOnly = path.join(tmp, 'text-only.zip');
    await writeZip(textOnly, [{ name: 'docs/notes.txt', data: Buffer.from('hello') }, { name: 'docs/', directory: true }]);
    const zipBytes = fs.readFileSync(textOnly);
    expect(await addMedia(partialId, file('text-only.zip', zipBytes, 'archive'))).toMatchObject({ status: 400, body: { detail: 'No images or videos found in archive text-only.zip' } });

    const notArchive = await addMedia(partialId, file('dog.jpg', photo('dog.jpg').bytes, 'archive'));
    expect(notArchive.status).toBe(400);
    expect(notArchive.body.detail).toMatch(/dog\.jpg is not a \.zip, \.tar or \.tar\.gz archive/);

    const inFiles = await addMedia(partialId, file('text-only.zip', zipBytes, 'files'));
    expect(inFiles.status).toBe(400);
    expect(inFiles.body.detail).toContain("'archive'");
    expect((await dataset(partialId)).status_new).toBe('PARTIAL INDEX');
  });
});

describe('s3 source', () => {
  it('adds every media object under a folder, keeping sub-folders and skipping non-media', async () => {
    const datasetId = await readyDataset();
    await addS3Folder(datasetId);
    expect(await mediaNames(datasetId)).toEqual(expect.arrayContaining(['coffee.png', 'chelsea.png', 'sub/astronaut.png']));
    expect(await latestTask(datasetId)).toMatchObject({ status: 'COMPLETED' });
  });

  it('adds the objects a .txt manifest lists', async () => {
    const datasetId = await readyDataset();
    await addS3Manifest(datasetId);
    const names = await mediaNames(datasetId);
    expect(names.filter((n) => n.startsWith('extra/')).sort()).toEqual(['extra/one.jpg', 'extra/two.jpg']);
  });

  it('refuses a folder without media and a malformed URI with the spec message', async () => {
    for (const uri of ['s3://media/empty/', 'not-a-uri', 's3://no-such-bucket/x/']) {
      expect(await addMedia(partialId, field('s3_uri', uri))).toMatchObject({ status: 400, body: { detail: `Invalid S3 URI or no media files found at ${uri}` } });
    }
    expect((await dataset(partialId)).status_new).toBe('PARTIAL INDEX');
  });
});

describe('on-premises path source', () => {
  it('adds a nested folder inside LOCAL_MEDIA_ROOTS without following symbolic links out of it', async () => {
    const datasetId = await readyDataset();
    await addLocalFolder(datasetId);
    const names = await mediaNames(datasetId);
    expect(names).toEqual(expect.arrayContaining(['top.jpg', 'deep/deeper/bottom.jpg']));
    expect(names.some((n) => n.includes('secret') || n.includes('link'))).toBe(false);
  });

  it('403 for a path outside the roots, also through a symbolic link inside them', async () => {
    expect((await processPath(partialId, '/etc')).status).toBe(403);
    expect((await processPath(partialId, path.join(root, '..', 'outside'))).status).toBe(403);
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'escape'));
    expect((await processPath(partialId, path.join(root, 'escape'))).status).toBe(403);
    expect((await dataset(partialId)).status_new).toBe('PARTIAL INDEX');
  });

  it('400 for a folder without media, before any task starts', async () => {
    const empty = path.join(root, 'only-notes');
    fs.mkdirSync(empty);
    fs.writeFileSync(path.join(empty, 'readme.txt'), 'no pictures here');
    expect(await processPath(partialId, empty)).toMatchObject({ status: 400, body: { detail: `Invalid S3 URI or no media files found at ${empty}` } });
  });
});

describe('session cookie', () => {
  it('is accepted instead of a bearer token', async () => {
    const datasetId = await readyDataset();
    await addByCookie(datasetId);
    expect(await mediaNames(datasetId)).toContain('by-cookie.jpg');
  });
});

describe('media batch processed record', () => {
  it('has exactly one media_batches row and one notification per completed batch', async () => {
    const datasetId = await readyDataset();
    for (const add of [addZip, addTarGz, addS3Folder, addS3Manifest, addLocalFolder, addByCookie]) await add(datasetId);
    const completed = (await additionTasks(datasetId)).filter((t) => t.status === 'COMPLETED');
    expect(completed.length).toBe(6);
    const rows = await db().selectFrom('media_batches').selectAll().where('dataset_id', '=', datasetId).execute();
    expect(rows.map((r) => r.id).sort()).toEqual(completed.map((t) => t.id).sort());
    const ours = () => notifications.filter((n) => n.dataset_id === datasetId);
    await waitFor(async () => (ours().length >= completed.length ? true : undefined), 5_000, 'notifications');
    const expectedCounts = [2, 1, 3, 2, 2, 1];
    for (const task of completed) {
      const row = rows.filter((r) => r.id === task.id);
      expect(row).toHaveLength(1);
      const transId = (task.config as { trans_id: number }).trans_id;
      expect(row[0]).toMatchObject({ trans_id: transId });
      const sent = notifications.filter((n) => n.batch_id === task.id);
      expect(sent).toEqual([{ dataset_id: datasetId, batch_id: task.id, trans_id: transId, media_count: row[0]!.media_count }]);
    }
    const archiveBatch = completed.find((t) => (t.config as { source: string }).source === 'archive' && (t.config as { skipped_count: number }).skipped_count === 2)!;
    expect(rows.find((r) => r.id === archiveBatch.id)!.media_count).toBe(2);
    expect(rows.map((r) => r.media_count).sort()).toEqual([...expectedCounts].sort());
  }, 60_000);
});

describe('ADD_MEDIA_ENABLED=false', () => {
  it('403 with the spec message, checked after access and before the embedding config', async () => {
    const off = await startTestServer({ env: { ADD_MEDIA_ENABLED: 'false' } });
    try {
      const [user, stranger] = await Promise.all([off.createUser(), off.createUser()]);
      const id = (await off.api(user.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=bare')).body.dataset_id;
      const res = await off.api(user.token, 'POST', `/api/v1/dataset/${id}/add_media`, form([photo('dog.jpg')]));
      expect(res).toMatchObject({ status: 403, body: { detail: 'Add media feature is not enabled' } });
      expect(JSON.parse(res.text)).toEqual({ detail: 'Add media feature is not enabled' });
      expect((await off.api(stranger.token, 'POST', `/api/v1/dataset/${id}/add_media`, form([photo('dog.jpg')]))).status).toBe(404);
    } finally {
      await off.close();
    }
  }, 60_000);
});

describe('s3 source sent as an urlencoded form', () => {
  const urlencoded = (...pairs: Array<[string, string]>) => new URLSearchParams(pairs);

  it('is taken like the multipart form, options included', async () => {
    const datasetId = await readyDataset();
    await addAndWait(datasetId, urlencoded(['s3_uri', 's3://media/urlencoded/'], ['batch_n_images', '2']), 1);
    expect(await mediaNames(datasetId)).toContain('four.jpg');
    const task = (await additionTasks(datasetId)).find((t) => (t.config as { s3_uri?: string }).s3_uri === 's3://media/urlencoded/');
    expect(task?.config).toMatchObject({ source: 's3', batch_n_images: 2, auto_reindex: false });
  });

  it('answers a bad URI, no source and two sources with the same messages as multipart', async () => {
    for (const uri of ['s3://media/empty/', 'not-a-uri']) {
      expect(await addMedia(partialId, urlencoded(['s3_uri', uri]))).toMatchObject({ status: 400, body: { detail: `Invalid S3 URI or no media files found at ${uri}` } });
    }
    const exactlyOne = { status: 400, body: { detail: 'Exactly one media source must be provided: files[], s3_uri, or archive' } };
    const twoSources = new FormData();
    twoSources.append('s3_uri', 's3://media/batch1/');
    twoSources.append('archive', new Blob([new Uint8Array(photo('dog.jpg').bytes)]), 'photos.zip');
    expect(await addMedia(partialId, twoSources)).toMatchObject(exactlyOne);
    expect(await addMedia(partialId, urlencoded(['s3_uri', 's3://media/batch1/'], ['archive', 'photos.zip']))).toMatchObject(exactlyOne);
    expect(await addMedia(partialId, urlencoded(['s3_uri', 's3://media/batch1/'], ['s3_uri', 's3://media/extra/']))).toMatchObject(exactlyOne);
    expect(await addMedia(partialId, urlencoded(['files', 'dog.jpg']))).toMatchObject(exactlyOne);
    expect(await addMedia(partialId, urlencoded(['auto_reindex', 'true']))).toMatchObject(exactlyOne);
    expect(await addMedia(partialId, urlencoded(['s3_uri', 's3://media/urlencoded/'], ['batch_n_images', 'many']))).toMatchObject({
      status: 422,
      body: { detail: "batch_n_images must be a whole number from 1 to 1000000, got 'many'" },
    });
    expect((await dataset(partialId)).status_new).toBe('PARTIAL INDEX');
  });
});
