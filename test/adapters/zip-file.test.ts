import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createZip } from '../../src/adapters/zip/zip-file.js';
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
});
