import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ArchiveRefusedError,
  DEFAULT_ARCHIVE_LIMITS,
  archiveFormatOf,
  readArchive,
  type ArchiveFormat,
  type ArchiveLimits,
  type OnArchiveEntry,
} from '../../src/adapters/archives/archive-reader.js';
import { centralRecords, patchFile, writeTar, writeZip, zeros, type TarItem, type ZipItem } from './build-archives.js';

let dir: string;
let counter = 0;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'archive-reader-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

const EXTENSIONS: Record<ArchiveFormat, string> = { zip: 'zip', tar: 'tar', 'tar.gz': 'tar.gz' };
const fresh = (format: ArchiveFormat): string => join(dir, `a${++counter}.${EXTENSIONS[format]}`);
const limits = (overrides: Partial<ArchiveLimits>): ArchiveLimits => ({ ...DEFAULT_ARCHIVE_LIMITS, ...overrides });

/** Builds the same file list as a zip, a tar or a tar.gz. */
async function build(format: ArchiveFormat, files: Record<string, string | Buffer>): Promise<string> {
  const file = fresh(format);
  const items = Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
  if (format === 'zip') await writeZip(file, items);
  else await writeTar(file, items, format === 'tar.gz');
  return file;
}

async function extractAll(file: string, format: ArchiveFormat, overrides: Partial<ArchiveLimits> = {}) {
  const files: Record<string, string> = {};
  const skipped = await readArchive(file, format, async ({ path, size, stream }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    files[path] = Buffer.concat(chunks).toString('latin1');
    expect(files[path]).toHaveLength(size);
  }, { limits: limits(overrides) });
  return { files, skipped };
}

const FORMATS: ArchiveFormat[] = ['zip', 'tar', 'tar.gz'];

describe.each(FORMATS)('readArchive (%s)', (format) => {
  it('extracts nested folders with their contents intact, skipping macOS metadata', async () => {
    const photo = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const file = await build(format, {
      'top.jpg': 'top',
      'trip/day 1/photo.png': photo,
      './trip\\day 2/clip.mp4': 'clip',
      '__MACOSX/trip/._photo.png': 'junk',
      'trip/._clip.mp4': 'junk',
    });
    const { files, skipped } = await extractAll(file, format);
    expect(files).toEqual({
      'top.jpg': 'top',
      'trip/day 1/photo.png': photo.toString('latin1'),
      'trip/day 2/clip.mp4': 'clip',
    });
    expect(skipped).toEqual([
      { path: '__MACOSX/trip/._photo.png', reason: 'metadata file' },
      { path: 'trip/._clip.mp4', reason: 'metadata file' },
    ]);
  });

  it('skips and reports entries that would land outside the target folder', async () => {
    const file = fresh(format);
    const items = [
      { name: 'ok.jpg', data: Buffer.from('ok') },
      { name: 'XX/evil.jpg', data: Buffer.from('x') },
      { name: '_etc/passwd', data: Buffer.from('x') },
      { name: 'a/XX/XX/b.jpg', data: Buffer.from('x') },
      { name: 'Cq/Windows/x.jpg', data: Buffer.from('x') },
    ];
    const swaps = { 'XX/evil': '../evil', _etc: '/etc', 'a/XX/XX/b': 'a/../../b', 'Cq/Windows': 'C:/Windows' };
    if (format === 'zip') await writeZip(file, items, swaps);
    else await writeTar(file, items.map((item) => ({ ...item, name: swap(item.name, swaps) })), format === 'tar.gz');
    const { files, skipped } = await extractAll(file, format);
    expect(files).toEqual({ 'ok.jpg': 'ok' });
    expect(skipped).toEqual([
      { path: '../evil.jpg', reason: 'path escapes the archive (..)' },
      { path: '/etc/passwd', reason: 'absolute path' },
      { path: 'a/../../b.jpg', reason: 'path escapes the archive (..)' },
      { path: 'C:/Windows/x.jpg', reason: 'absolute path' },
    ]);
  });

  it('refuses more entries than allowed before delivering any', async () => {
    const file = await build(format, { 'a.jpg': 'a', 'b.jpg': 'b', 'c.jpg': 'c' });
    const onEntry = vi.fn<OnArchiveEntry>(async ({ stream }) => void stream.resume());
    const reading = readArchive(file, format, onEntry, { limits: limits({ maxEntries: 2 }) });
    await expect(reading).rejects.toThrow(/more than 2 entries/);
    expect(onEntry.mock.calls.length).toBeLessThanOrEqual(format === 'zip' ? 0 : 2);
  });

  it('refuses archives that expand past the total or per-entry limit', async () => {
    const file = await build(format, { 'a.jpg': 'a'.repeat(600), 'b.jpg': 'b'.repeat(600) });
    await expect(extractAll(file, format, { maxTotalBytes: 1000 })).rejects.toThrow(/expands to more than 1000 bytes/);
    await expect(extractAll(file, format, { maxEntryBytes: 500 })).rejects.toThrow(/"a.jpg" is larger than 500 bytes/);
    await expect(extractAll(file, format, { maxTotalBytes: 1200, maxEntryBytes: 600 })).resolves.toBeTruthy();
  });

  it('drains what the callback leaves unread and stops on abort', async () => {
    const file = await build(format, { 'a.jpg': 'a'.repeat(200_000), 'b.jpg': 'b', 'c.jpg': 'c' });
    const seen: string[] = [];
    await readArchive(file, format, async ({ path }) => void seen.push(path));
    expect(seen).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);

    const controller = new AbortController();
    const reading = readArchive(file, format, async ({ path, stream }) => {
      stream.resume();
      if (path === 'b.jpg') controller.abort(new Error('stop'));
    }, { signal: controller.signal });
    await expect(reading).rejects.toThrow('stop');
  });

  it('passes the callback’s own error through', async () => {
    const file = await build(format, { 'a.jpg': 'a'.repeat(100_000) });
    const failing = readArchive(file, format, async () => { throw new Error('blob store is down'); });
    await expect(failing).rejects.toThrow('blob store is down');
  });

  it('screens entries from their first bytes: a skipped one is never delivered, a kept one arrives whole with its head', async () => {
    const big = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const file = await build(format, { 'keep.jpg': big, 'drop.jpg': 'drop me', 'tiny.jpg': 'k' });
    const seen: Array<{ path: string; size: number; head: number }> = [];
    const delivered: Record<string, string> = {};
    const skipped = await readArchive(file, format, async ({ path, stream }) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      delivered[path] = Buffer.concat(chunks).toString('latin1');
    }, { screen: ({ path, size, head }) => (seen.push({ path, size, head: head.length }), head[0] === 'd'.charCodeAt(0) ? 'starts with d' : null) });
    expect(seen).toEqual([{ path: 'keep.jpg', size: 70_000, head: 4100 }, { path: 'drop.jpg', size: 7, head: 7 }, { path: 'tiny.jpg', size: 1, head: 1 }]);
    expect(delivered).toEqual({ 'keep.jpg': big.toString('latin1'), 'tiny.jpg': 'k' });
    expect(skipped).toEqual([{ path: 'drop.jpg', reason: 'starts with d' }]);
  });

  it('skips names with NUL or control characters, reported printable', async () => {
    const file = fresh(format);
    const items = [{ name: 'ok.jpg', data: Buffer.from('ok') }, { name: 'aQb.jpg', data: Buffer.from('x') }, { name: 'cRd.jpg', data: Buffer.from('x') }];
    const swaps = { 'aQb.jpg': 'a\u0000b.jpg', 'cRd.jpg': 'c\nd.jpg' };
    if (format === 'zip') await writeZip(file, items, swaps);
    else await writeTar(file, items.map(({ name, data }) => ({ name: 'stand-in', pax: { path: swap(name, swaps) }, data })), format === 'tar.gz');
    const { files, skipped } = await extractAll(file, format);
    expect(files).toEqual({ 'ok.jpg': 'ok' });
    expect(skipped).toEqual([
      { path: 'a?b.jpg', reason: 'NUL byte in path' },
      { path: 'c?d.jpg', reason: 'control character in path' },
    ]);
  });

  it('refuses a truncated archive', async () => {
    const file = await build(format, { 'a.jpg': Buffer.from(Array.from({ length: 50_000 }, (_, i) => i % 251)), 'b.jpg': 'b' });
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(extractAll(file, format)).rejects.toBeInstanceOf(ArchiveRefusedError);
  });
});

describe('readArchive, zip specifics', () => {
  it('refuses a zip bomb from the central directory, before any entry is delivered', async () => {
    const file = fresh('zip');
    await writeZip(file, [{ name: 'small.jpg', data: Buffer.from('x') }, { name: 'zeros.jpg', stream: () => zeros(200) }]);
    const onEntry = vi.fn<OnArchiveEntry>(async ({ stream }) => void stream.resume());
    const reading = readArchive(file, 'zip', onEntry, { limits: limits({ maxCompressionRatio: 100 }) });
    await expect(reading).rejects.toThrow(/"zeros.jpg" expands more than 100 times/);
    expect(onEntry).not.toHaveBeenCalled();
  });

  it('skips symbolic links, device files and encrypted entries', async () => {
    const file = fresh('zip');
    const items: ZipItem[] = [
      { name: 'link.jpg', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
      { name: 'fifo', data: Buffer.alloc(0), mode: 0o010644 },
      { name: 'secret.jpg', data: Buffer.from('sealed') },
      { name: 'dir/', directory: true },
      { name: 'dir/real.jpg', data: Buffer.from('real'), mode: 0o100644 },
    ];
    await writeZip(file, items);
    await patchFile(file, (bytes) => {
      const record = centralRecords(bytes)[2] ?? 0;
      bytes.writeUInt16LE(bytes.readUInt16LE(record + 8) | 1, record + 8); // general purpose flag: encrypted
    });
    const { files, skipped } = await extractAll(file, 'zip');
    expect(files).toEqual({ 'dir/real.jpg': 'real' });
    expect(skipped).toEqual([
      { path: 'link.jpg', reason: 'symbolic link' },
      { path: 'fifo', reason: 'device or special file' },
      { path: 'secret.jpg', reason: 'encrypted' },
    ]);
  });

  it('refuses entries that share compressed bytes (the overlapping zip bomb)', async () => {
    const file = fresh('zip');
    await writeZip(file, [{ name: 'a.jpg', data: Buffer.from('aaaa') }, { name: 'b.jpg', data: Buffer.from('bbbb') }]);
    await patchFile(file, (bytes) => bytes.writeUInt32LE(0, (centralRecords(bytes)[1] ?? 0) + 42));
    await expect(extractAll(file, 'zip')).rejects.toThrow(/overlap/);
  });
});

describe('readArchive, tar specifics', () => {
  it.each([false, true])('skips links and device files (gzip: %s)', async (gzip) => {
    const file = fresh(gzip ? 'tar.gz' : 'tar');
    const items: TarItem[] = [
      { name: 'dir', type: 'directory' },
      { name: 'dir/real.jpg', data: Buffer.from('real') },
      { name: 'dir/link.jpg', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'dir/hard.jpg', type: 'link', linkname: 'dir/real.jpg' },
      { name: 'dev/null', type: 'character-device', devmajor: 1, devminor: 3 },
      { name: 'dev/sda', type: 'block-device', devmajor: 8 },
      { name: 'pipe', type: 'fifo' },
    ];
    await writeTar(file, items, gzip);
    const { files, skipped } = await extractAll(file, gzip ? 'tar.gz' : 'tar');
    expect(files).toEqual({ 'dir/real.jpg': 'real' });
    expect(skipped).toEqual([
      { path: 'dir/link.jpg', reason: 'symbolic link' },
      { path: 'dir/hard.jpg', reason: 'hard link' },
      { path: 'dev/null', reason: 'device or special file' },
      { path: 'dev/sda', reason: 'device or special file' },
      { path: 'pipe', reason: 'device or special file' },
    ]);
  });

  it.each([['larger', 1_000_000], ['smaller', 100]] as const)('refuses a tar.gz whose header declares a %s size', async (_, lie) => {
    const plain = fresh('tar');
    await writeTar(plain, [{ name: 'a.jpg', data: Buffer.alloc(3000, 1) }, { name: 'b.jpg', data: Buffer.from('b') }]);
    const bytes = await readFile(plain);
    bytes.write(`${lie.toString(8).padStart(11, '0')}\0`, 124, 'latin1'); // then a valid checksum: only the size lies
    bytes.write('        ', 148, 'latin1');
    const sum = bytes.subarray(0, 512).reduce((total, byte) => total + byte, 0);
    bytes.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    const file = fresh('tar.gz');
    await writeFile(file, gzipSync(bytes));
    await expect(extractAll(file, 'tar.gz')).rejects.toBeInstanceOf(ArchiveRefusedError);
  });

  it('refuses a gzip bomb by the expansion of the stream', async () => {
    const file = fresh('tar.gz');
    await writeTar(file, [{ name: 'zeros.jpg', data: Buffer.alloc(30 * 1024 * 1024) }], true);
    const onEntry = vi.fn<OnArchiveEntry>(async ({ stream }) => void stream.resume());
    const reading = readArchive(file, 'tar.gz', onEntry, { limits: limits({ maxCompressionRatio: 100 }) });
    await expect(reading).rejects.toThrow(/gzip stream expands more than 100 times/);
  });
});

describe('archiveFormatOf', () => {
  it('trusts magic bytes over the name, and the name only when the bytes say nothing', async () => {
    const zip = fresh('zip');
    await writeZip(zip, [{ name: 'a.jpg', data: Buffer.from('a') }]);
    const tar = fresh('tar');
    await writeTar(tar, [{ name: 'a.jpg', data: Buffer.from('a') }]);
    const zipHead = (await readFile(zip)).subarray(0, 4100);
    const tarHead = (await readFile(tar)).subarray(0, 4100);

    expect(archiveFormatOf('photos.tar', zipHead)).toBe('zip');
    expect(archiveFormatOf('photos.zip', tarHead)).toBe('tar');
    expect(archiveFormatOf('photos.zip', gzipSync(tarHead))).toBe('tar.gz');
    expect(archiveFormatOf('photos.zip', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBeNull();
    expect(archiveFormatOf('old.TGZ', Buffer.from('no magic here'))).toBe('tar.gz');
    expect(archiveFormatOf('notes.txt', Buffer.from('no magic here'))).toBeNull();
  });
});

function swap(name: string, swaps: Record<string, string>): string {
  return Object.entries(swaps).reduce((result, [from, to]) => result.replace(from, to), name);
}
