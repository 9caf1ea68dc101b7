import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
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
