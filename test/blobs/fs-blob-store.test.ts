import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../src/adapters/blobs/fs-blob-store.js';
import { blobStoreContract } from './blob-store.contract.js';

const tempFiles = async (root: string) => fs.readdir(path.join(root, 'tmp')).catch(() => [] as string[]);

blobStoreContract('FsBlobStore', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-blobs-'));
  return {
    store: new FsBlobStore(root),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
    tempFiles: () => tempFiles(root),
  };
});

describe('FsBlobStore on disk', () => {
  let root: string;
  let store: FsBlobStore;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-blobs-'));
    store = new FsBlobStore(root);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  /** Every blob file under root, outside the temp folder. */
  async function blobFiles(): Promise<string[]> {
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .filter((p) => !p.startsWith(`tmp${path.sep}`));
  }

  it('lays blobs out as ab/cd/<hash> and leaves no temp files', async () => {
    const data = randomBytes(5000);
    const hash = createHash('sha256').update(data).digest('hex');
    await store.putBuffer(data);
    await store.put(Readable.from([data]));
    expect(await blobFiles()).toEqual([path.join(hash.slice(0, 2), hash.slice(2, 4), hash)]);
    expect(store.pathOf(hash)).toBe(path.join(root, hash.slice(0, 2), hash.slice(2, 4), hash));
    expect((await store.localFile(hash)).path).toBe(store.pathOf(hash));
    expect(await tempFiles(root)).toEqual([]);
  });

  it('stores a blob larger than its sync step intact, and one cut short after a sync leaves nothing', async () => {
    const chunk = randomBytes(1 << 20);
    const chunks = (n: number) => Readable.from((function* () { for (let i = 0; i < n; i++) yield chunk; })());
    const stored = await store.put(chunks(70));
    const expected = createHash('sha256');
    for (let i = 0; i < 70; i++) expected.update(chunk);
    expect(stored).toEqual({ hash: expected.digest('hex'), size: 70 << 20 });
    const back = createHash('sha256');
    for await (const piece of await store.open(stored.hash)) back.update(piece as Buffer);
    expect(back.digest('hex')).toBe(stored.hash);

    const failing = Readable.from((async function* () {
      for (let i = 0; i < 40; i++) yield chunk;
      throw new Error('source broke');
    })());
    await expect(store.put(failing)).rejects.toThrow('source broke');
    expect(await tempFiles(root)).toEqual([]);
    expect(await blobFiles()).toEqual([path.join(stored.hash.slice(0, 2), stored.hash.slice(2, 4), stored.hash)]);
  });

  it('replaces a damaged copy instead of keeping it', async () => {
    const data = randomBytes(5000);
    const { hash } = await store.putBuffer(data);
    await fs.truncate(store.pathOf(hash), 100);
    await store.putBuffer(data);
    expect((await fs.readFile(store.pathOf(hash))).equals(data)).toBe(true);
  });

  it('writes a buffer already stored whole no second time, and makes its temp folder again when it is removed', async () => {
    const data = randomBytes(3000);
    const { hash } = await store.putBuffer(data);
    const written = (await fs.stat(store.pathOf(hash))).mtimeMs;
    await fs.utimes(store.pathOf(hash), new Date(0), new Date(0));
    expect(await store.putBuffer(data)).toEqual({ hash, size: 3000 });
    expect((await fs.stat(store.pathOf(hash))).mtimeMs).toBe(0);
    expect(written).toBeGreaterThan(0);

    await fs.rm(path.join(root, 'tmp'), { recursive: true });
    const other = randomBytes(100);
    expect((await store.putBuffer(other)).size).toBe(100);
    expect((await fs.readFile(store.pathOf(createHash('sha256').update(other).digest('hex')))).equals(other)).toBe(true);
    expect(await tempFiles(root)).toEqual([]);
  });

  it('never touches paths outside its root for bad hashes', async () => {
    const outside = path.join(root, '..', `${path.basename(root)}-victim`);
    await fs.writeFile(outside, 'keep me');
    try {
      await expect(store.delete(`../../${path.basename(outside)}`)).rejects.toThrow(/invalid blob hash/);
      expect(await fs.readFile(outside, 'utf8')).toBe('keep me');
    } finally {
      await fs.rm(outside, { force: true });
    }
  });

  it('cleanTemp removes temp files older than an hour and keeps fresh ones', async () => {
    expect(await store.cleanTemp()).toBe(0); // no tmp folder yet
    const tmp = path.join(root, 'tmp');
    await fs.mkdir(tmp, { recursive: true });
    await fs.writeFile(path.join(tmp, 'old.part'), 'crashed upload');
    await fs.writeFile(path.join(tmp, 'fresh.part'), 'upload in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(path.join(tmp, 'old.part'), twoHoursAgo, twoHoursAgo);
    expect(await store.cleanTemp()).toBe(1);
    expect(await fs.readdir(tmp)).toEqual(['fresh.part']);
  });
});
