import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import tar, { type Header } from 'tar-stream';
import { ZipFile } from 'yazl';

export interface ZipItem {
  name: string;
  data?: Buffer;
  /** Streamed instead of `data` (a bomb too big to hold). */
  stream?: () => Readable;
  mode?: number;
  directory?: boolean;
}

/** Writes a zip with yazl, then swaps byte strings in it: yazl refuses unsafe names, so tests store a same-length stand-in. */
export async function writeZip(file: string, items: ZipItem[], swaps: Record<string, string> = {}): Promise<void> {
  const zip = new ZipFile();
  for (const item of items) {
    const options = item.mode === undefined ? {} : { mode: item.mode };
    if (item.directory) zip.addEmptyDirectory(item.name);
    else if (item.stream) zip.addReadStream(item.stream(), item.name, { ...options, compressionLevel: 1 }); // fast, still ~230:1 on zeros
    else zip.addBuffer(item.data ?? Buffer.alloc(0), item.name, options);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
  if (Object.keys(swaps).length > 0) await patchFile(file, (bytes) => swapAll(bytes, swaps));
}

export async function patchFile(file: string, patch: (bytes: Buffer) => void): Promise<void> {
  const bytes = await readFile(file);
  patch(bytes);
  await writeFile(file, bytes);
}

function swapAll(bytes: Buffer, swaps: Record<string, string>): void {
  for (const [from, to] of Object.entries(swaps)) {
    if (from.length !== to.length) throw new Error('swaps must keep the length');
    for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + 1)) bytes.write(to, at, 'latin1');
  }
}

/** Offsets of the central directory records (PK\1\2), in order. */
export function centralRecords(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = bytes.indexOf('PK\x01\x02'); at !== -1; at = bytes.indexOf('PK\x01\x02', at + 1)) offsets.push(at);
  return offsets;
}

export type TarItem = Partial<Header> & { name: string; data?: Buffer };

export async function writeTar(file: string, items: TarItem[], gzip = false): Promise<void> {
  const pack = tar.pack();
  const packing = (async () => {
    for (const { data, ...header } of items) {
      await new Promise<void>((resolve, reject) => {
        pack.entry({ ...header, size: data?.length ?? 0 }, data ?? Buffer.alloc(0), (error) => (error ? reject(error) : resolve()));
      });
    }
    pack.finalize();
  })();
  const out = createWriteStream(file);
  await Promise.all([packing, gzip ? pipeline(pack, createGzip(), out) : pipeline(pack, out)]);
}

export function zeros(megabytes: number): Readable {
  const chunk = Buffer.alloc(1024 * 1024);
  return Readable.from((function* () { for (let i = 0; i < megabytes; i++) yield chunk; })());
}

/** A tar.gz of `count` entries named e/<n>.jpg, each holding `data` (≤ 512 bytes), written by hand: tar-stream takes ~20 s for 100,000. */
export function manyEntriesTarGz(count: number, data: Buffer): Buffer {
  const blocks = Buffer.alloc((count + 1) * 1024); // a header and a data block per entry, then the two zero blocks of the end
  for (let i = 0; i < count; i++) {
    const header = blocks.subarray(i * 1024, i * 1024 + 512);
    header.write(`e/${i}.jpg`, 0, 'latin1');
    header.write('0000644\0', 100, 'latin1');
    header.write('0000000\0', 108, 'latin1');
    header.write('0000000\0', 116, 'latin1');
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    header.write('00000000000\0', 136, 'latin1');
    header.write('        ', 148, 'latin1'); // the checksum counts its own field as spaces
    header.write('0', 156, 'latin1');
    header.write('ustar\x0000', 257, 'latin1');
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    data.copy(blocks, i * 1024 + 512);
  }
  return gzipSync(blocks);
}
