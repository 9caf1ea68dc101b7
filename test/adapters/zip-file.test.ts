import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createZip, zipBytes } from '../../src/adapters/zip/zip-file.js';
import { readZip } from '../support/zip.js';

const require = createRequire(import.meta.url);

/** The table loop buffer-crc32 ships, as the reference the native checksum must match. */
function referenceCrc32(buf: Buffer, previous = 0): number {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = ~~previous ^ -1;
  for (const byte of buf) crc = table[(crc ^ byte) & 255]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

describe('createZip', () => {
  it("gives yazl a checksum equal to buffer-crc32's, also when chained over chunks", () => {
    createZip();
    const crc32 = require(require.resolve('buffer-crc32', { paths: [require.resolve('yazl')] })) as { unsigned: (b: Buffer, p?: number) => number };
    for (const size of [0, 1, 7, 4096, 100_003]) {
      const buf = randomBytes(size);
      expect(crc32.unsigned(buf)).toBe(referenceCrc32(buf));
      const half = Math.floor(size / 2);
      expect(crc32.unsigned(buf.subarray(half), crc32.unsigned(buf.subarray(0, half)))).toBe(referenceCrc32(buf));
    }
  });

  it('writes archives an independent reader validates', async () => {
    const zip = createZip();
    const data = randomBytes(200_000);
    zip.addBuffer(data, 'a.bin', { compress: false });
    zip.addBuffer(Buffer.from('hello'), 'dir/b.txt');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const entries = await readZip(Buffer.concat(chunks));
    expect(entries.get('a.bin')!.bytes.equals(data)).toBe(true);
    expect(entries.get('dir/b.txt')!.bytes.toString()).toBe('hello');
  });

  it('zipBytes passes the archive on in pieces of about 1 MB, the same bytes, and fails when the archive does', async () => {
    const zip = createZip();
    const files = Array.from({ length: 40 }, (_, i) => randomBytes(100_000 + i));
    for (const [i, file] of files.entries()) zip.addBuffer(file, `images/${i}.jpg`, { compress: false });
    zip.end();
    const sizes: number[] = [];
    const chunks: Buffer[] = [];
    for await (const chunk of zipBytes(zip)) {
      sizes.push((chunk as Buffer).length);
      chunks.push(chunk as Buffer);
    }
    expect(sizes.slice(0, -1).every((size) => size >= 1 << 20)).toBe(true);
    expect(sizes.length).toBeLessThan(6);
    const entries = await readZip(Buffer.concat(chunks));
    for (const [i, file] of files.entries()) expect(entries.get(`images/${i}.jpg`)!.bytes.equals(file)).toBe(true);

    const broken = createZip();
    broken.addBuffer(randomBytes(10), 'a.bin', { compress: false });
    const bytes = zipBytes(broken);
    broken.outputStream.destroy(new Error('disk gone'));
    await expect(async () => {
      for await (const chunk of bytes) void chunk;
    }).rejects.toThrow('disk gone');
  });
});
