import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/adapters/blobs/blob-store.js';
import { FsBlobStore } from '../../src/adapters/blobs/fs-blob-store.js';
import { SpooledFile } from '../../src/adapters/uploads/spooled-file.js';
import { AppError } from '../../src/core/errors.js';
import { ArchiveIntake } from '../../src/modules/add-media/archive-intake.js';
import { photo } from '../support/ingest.js';
import { type TarItem, writeTar, writeZip } from './build-archives.js';

let dir: string;
let counter = 0;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'archive-intake-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A 1×1 GIF; the suffix after its trailer makes each copy distinct bytes. */
const gif = (n: number) => Buffer.concat([Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'), Buffer.from(String(n))]);
const JPEG = photo('dog.jpg').bytes;
const HEADER_ONLY_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9]);

async function spooledTar(items: TarItem[]): Promise<SpooledFile> {
  const file = join(dir, `a${++counter}.tar`);
  await writeTar(file, items);
  return SpooledFile.spool(createReadStream(file), `a${counter}.tar`, 1e9);
}

async function blobsIn(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !relative(root, e.parentPath).startsWith('tmp')).map((e) => e.name).sort();
}

function store(): { root: string; blobs: FsBlobStore; queued: string[] } {
  const root = join(dir, `blobs${++counter}`);
  return { root, blobs: new FsBlobStore(root), queued: [] };
}

describe('ArchiveIntake', () => {
  it('stores the media in archive order, writes no blob for what cannot be media, and queues an undecodable image for the sweep', async () => {
    const { root, blobs, queued } = store();
    const zip = join(dir, 'inner.zip');
    await writeZip(zip, [{ name: 'x.jpg', data: JPEG }]);
    const archive = await spooledTar([
      { name: 'a.jpg', data: JPEG },
      { name: 'notes.txt', data: Buffer.from('notes') },
      { name: 'head.jpg', data: HEADER_ONLY_JPEG },
      { name: 'inner.zip', data: await readFile(zip) },
      { name: 'b.gif', data: gif(1) },
      { name: 'a.jpg', data: gif(2) },
    ]);
    const intake = new ArchiveIntake(blobs, { queue: async (hashes) => void queued.push(...hashes) }, 1e9);
    const { files, skipped } = await intake.unpack(archive).finally(() => archive.dispose());
    expect(files.map((f) => [f.file_name, f.format])).toEqual([['a.jpg', 'jpeg'], ['b.gif', 'gif']]);
    // Skipped as they were stored or refused, then those the reader's screen skipped without a blob.
    expect(skipped).toEqual([
      { path: 'head.jpg', reason: expect.stringContaining('head.jpg') },
      { path: 'a.jpg', reason: 'duplicate path (an earlier entry has it)' },
      { path: 'notes.txt', reason: 'not an image or video' },
      { path: 'inner.zip', reason: 'an archive inside the archive (not unpacked)' },
    ]);
    expect(await blobsIn(root)).toEqual([...files.map((f) => f.blob_hash), ...queued].sort());
    expect(queued).toHaveLength(1);
  });

  it('refuses an archive that takes longer than its deadline, with every blob it wrote known to the caller', async () => {
    const { root, blobs: disk } = store();
    // A disk that takes 50 ms a file: forty entries cannot be stored within the 0.3 s allowed.
    const slow: BlobStore = Object.assign(Object.create(disk) as BlobStore, {
      write: async (...args: Parameters<BlobStore['write']>) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return disk.write(...args);
      },
    });
    const archive = await spooledTar(Array.from({ length: 40 }, (_, i) => ({ name: `g${i}.gif`, data: gif(i) })));
    const intake = new ArchiveIntake(slow, { queue: async () => undefined }, 1e9, { baseSeconds: 0.3, bytesPerSecond: Number.MAX_SAFE_INTEGER });
    const started = Date.now();
    const refusal = await intake.unpack(archive).finally(() => archive.dispose()).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 400, detail: `Archive ${archive.name} refused: not unpacked within 1 seconds; split it into smaller archives` });
    expect(Date.now() - started).toBeLessThan(2_000);
    await intake.settled();
    expect((await blobsIn(root)).sort()).toEqual([...new Set(intake.hashes)].sort());
    expect(intake.hashes.length).toBeLessThan(40);
  });
});
