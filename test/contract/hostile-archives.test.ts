import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TarItem, manyEntriesTarGz, writeTar, writeZip } from '../archives/build-archives.js';
import { type TestDataset, useTestContext } from '../support/context.js';
import { form, photo } from '../support/ingest.js';
import { type TestUser, waitFor } from '../support/server.js';

/*
 * The archive part of the hostile-input catalogue (issue 28): each case a clean 4xx with {"detail"} or the skip
 * report on the task, nothing stored, the server alive. Covered elsewhere, not repeated here:
 * - zip bomb by compression ratio, over HTTP, and a zip with `../` beside media: test/contract/add-media-sources.test.ts
 * - an archive without media, a non-archive sent as `archive`, a .zip sent in `files`: the same file
 * - the overlapping-entries zip bomb, size lies in tar headers, truncated archives, device files, encrypted zip
 *   entries, entry and byte limits, zip-slip in every format: test/archives/archive-reader.test.ts
 */

const ctx = useTestContext();
let owner: TestUser;
let dataset: TestDataset;
let tmp: string;
/** Every file under the data directory but the database's: what a request that stores nothing leaves as it was. */
let filesBefore: string[];
let imagesBefore: number;

const JPEG = photo('dog.jpg').bytes;
const addMedia = (body: FormData) => ctx.server.api(owner.token, 'POST', `/api/v1/dataset/${dataset.id}/add_media`, body);
const send = (name: string, bytes: Buffer, field = 'archive') => addMedia(form([{ name, bytes, field }]));
const noMedia = (name: string) => ({ status: 400, body: { detail: `No images or videos found in archive ${name}` } });
const additionTasks = async () =>
  (await ctx.server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${dataset.id}&task_type=MEDIA_ADDITION`)).body.tasks as Array<Record<string, any>>;

function filesUnder(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile() || d.isSymbolicLink())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .filter((p) => !/^pg[-.]|^pg\//.test(p))
    .sort();
}

async function tarFile(name: string, items: TarItem[], gzip = true): Promise<Buffer> {
  const file = path.join(tmp, name);
  await writeTar(file, items, gzip);
  return fs.readFileSync(file);
}

async function zipFile(name: string, items: Parameters<typeof writeZip>[1], swaps?: Record<string, string>): Promise<Buffer> {
  const file = path.join(tmp, name);
  await writeZip(file, items, swaps);
  return fs.readFileSync(file);
}

/** Nothing joined the dataset, no task started, not a file appeared in the data directory, and the server still answers. */
async function expectNothingStored(): Promise<void> {
  const after = await ctx.server.api(owner.token, 'GET', `/api/v1/dataset/${dataset.id}`);
  expect(after.status).toBe(200);
  expect(after.body).toMatchObject({ n_images: imagesBefore, status_new: 'READY' });
  expect(await additionTasks()).toEqual([]);
  expect(filesUnder(ctx.server.dataDir)).toEqual(filesBefore);
}

beforeAll(async () => {
  owner = await ctx.newUser();
  dataset = await ctx.newDataset(owner, { photos: ['horses.jpg'] });
  imagesBefore = dataset.body!.n_images;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-archives-'));
  filesBefore = filesUnder(ctx.server.dataDir);
}, 60_000);
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('hostile archives sent to add_media', () => {
  it('answers a tar.gz of 100,000 one-byte entries in seconds, without a blob for any of them', async () => {
    const bytes = manyEntriesTarGz(100_000, Buffer.from('x'));
    const started = Date.now();
    expect(await send('many.tar.gz', bytes)).toMatchObject(noMedia('many.tar.gz'));
    expect(Date.now() - started).toBeLessThan(20_000); // minutes before the fix; seconds now even on a loaded machine
    await expectNothingStored();
  }, 30_000);

  it('skips entries that would land outside the archive: .., absolute paths, drive letters', async () => {
    const names = ['../../x.jpg', '/tmp/x.jpg', 'C:/x.jpg', 'C:\\x.jpg', 'a/../../x.jpg', '\\\\server\\share\\x.jpg'];
    const tgz = await tarFile('slip.tar.gz', names.map((name) => ({ name, data: JPEG })));
    expect(await send('slip.tar.gz', tgz)).toMatchObject(noMedia('slip.tar.gz'));
    // yazl refuses such names, so the zip holds same-length stand-ins, swapped afterwards.
    const zip = await zipFile('slip.zip', [{ name: 'Qtmp/x.jpg', data: JPEG }, { name: 'CQ/x.jpg', data: JPEG }], { 'Qtmp/x.jpg': '/tmp/x.jpg', 'CQ/x.jpg': 'C:/x.jpg' });
    expect(await send('slip.zip', zip)).toMatchObject(noMedia('slip.zip'));
    expect(fs.existsSync('/tmp/x.jpg') || fs.existsSync(path.join(ctx.server.dataDir, '..', 'x.jpg'))).toBe(false);
    await expectNothingStored();
  });

  it('skips symbolic and hard links, in tar and in zip', async () => {
    const tar = await tarFile('links.tar', [
      { name: 'link.jpg', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'hard.jpg', type: 'link', linkname: '/etc/passwd' },
    ], false);
    expect(await send('links.tar', tar)).toMatchObject(noMedia('links.tar'));
    const zip = await zipFile('links.zip', [{ name: 'link.jpg', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]);
    expect(await send('links.zip', zip)).toMatchObject(noMedia('links.zip'));
    await expectNothingStored();
  });

  it('refuses a tar.gz bomb by its expansion, though its entry starts like a JPEG', async () => {
    const entry = Buffer.concat([JPEG.subarray(0, 3), Buffer.alloc(16 * 1024 * 1024)]);
    const tar = await tarFile('bomb.tar', [{ name: 'bomb.jpg', data: entry }], false);
    const tgz = await buffer(Readable.from([tar]).pipe(createGzip({ level: 9 })));
    const res = await send('bomb.tar.gz', tgz);
    expect(res).toMatchObject({ status: 400, body: { detail: 'Archive bomb.tar.gz refused: the gzip stream expands more than 200 times (a compression bomb)' } });
    await expectNothingStored();
  });

  it('takes a polyglot for what its first bytes say: a JPEG with a zip appended is no archive, a zip named .jpg is no image', async () => {
    const zip = await zipFile('inner.zip', [{ name: 'dog.jpg', data: JPEG }]);
    const jpegThenZip = await send('poly.zip', Buffer.concat([JPEG, zip]));
    expect(jpegThenZip).toMatchObject({ status: 400, body: { detail: 'poly.zip is not a .zip, .tar or .tar.gz archive' } });
    const zipAsJpeg = await send('renamed.jpg', zip, 'files');
    expect(zipAsJpeg).toMatchObject({ status: 400, body: { detail: "renamed.jpg is an archive: send it in the form field 'archive' (one .zip, .tar or .tar.gz)" } });
    await expectNothingStored();
  });

  it('does not unpack archives inside the archive', async () => {
    const zip = await zipFile('nested.zip', [{ name: 'dog.jpg', data: JPEG }]);
    const tgz = await tarFile('nested-inner.tar.gz', [{ name: 'dog.jpg', data: JPEG }]);
    const outer = await tarFile('outer.tar.gz', [{ name: 'inner.zip', data: zip }, { name: 'inner.tar.gz', data: tgz }, { name: 'disguised.jpg', data: zip }]);
    expect(await send('outer.tar.gz', outer)).toMatchObject(noMedia('outer.tar.gz'));
    await expectNothingStored();
  });

  it('skips entry names with NUL or control characters', async () => {
    const named = (name: string): TarItem => ({ name: 'plain.jpg', pax: { path: name }, data: JPEG });
    const tgz = await tarFile('names.tar.gz', [named('a\u0000b.jpg'), named('c\nd.jpg'), named('e\u001b[2Jf.jpg'), named('g\u007fh.jpg')]);
    expect(await send('names.tar.gz', tgz)).toMatchObject(noMedia('names.tar.gz'));
    const zip = await zipFile('names.zip', [{ name: 'aQb.jpg', data: JPEG }, { name: 'cRd.jpg', data: JPEG }], { 'aQb.jpg': 'a\u0000b.jpg', 'cRd.jpg': 'c\rd.jpg' });
    expect(await send('names.zip', zip)).toMatchObject(noMedia('names.zip'));
    await expectNothingStored();
  });

  // Last: the only case that starts a task.
  it('adds the first of two entries with one name and reports the second as skipped', async () => {
    const tar = await tarFile('dup.tar', [{ name: 'dup.jpg', data: JPEG }, { name: 'dup.jpg', data: photo('person.jpg').bytes }], false);
    expect((await send('dup.tar', tar)).status).toBe(202);
    const done = await waitFor(async () => {
      const d = (await ctx.server.api(owner.token, 'GET', `/api/v1/dataset/${dataset.id}`)).body;
      return ['PARTIAL INDEX', 'ERROR'].includes(d.status_new) ? d : undefined;
    }, 30_000, 'the batch to end');
    expect(done).toMatchObject({ status_new: 'PARTIAL INDEX', n_images: imagesBefore + 1 });
    const [task] = await additionTasks();
    const { config } = await ctx.server.loupe.container.database.db.selectFrom('tasks').select('config').where('id', '=', task!.task_id).executeTakeFirstOrThrow();
    expect(config).toMatchObject({ skipped_count: 1, skipped: [{ path: 'dup.jpg', reason: 'duplicate path (an earlier entry has it)' }] });
    const media = (await ctx.server.api(owner.token, 'GET', `/api/v1/dataset/${dataset.id}/media?limit=10`)).body.media;
    expect(media.map((m: { file_name: string }) => m.file_name).sort()).toEqual(['dup.jpg', 'horses.jpg']);
  }, 40_000);
});
