import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupInvalidError } from './manifest.js';

/** Counts and hashes what passes through. */
export class Hasher extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/**
 * Streams `source` into `file` (made with its folders), synced to disk, and says how many bytes it held and their
 * sha256. Written as `file.part` and renamed, so a cut stream leaves no file that looks whole.
 */
export async function writeHashed(source: Readable, file: string): Promise<{ bytes: number; sha256: string }> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.part`;
  const hasher = new Hasher();
  try {
    await pipeline(source, hasher, createWriteStream(temp));
    const handle = await fs.open(temp, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  return { bytes: hasher.bytes, sha256: hasher.hash.digest('hex') };
}

/**
 * Streams a backup file into `sink`, failing before the stream ends when its bytes are not the ones the manifest
 * names: the consumer (a COPY, a blob store's put) sees an error, never a clean end, so nothing of it is kept.
 */
export async function readVerified(file: string, expected: { bytes: number; sha256: string }, sink: Writable): Promise<void> {
  const hasher = { hash: createHash('sha256'), bytes: 0 };
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hasher.hash.update(chunk);
      hasher.bytes += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      const sha256 = hasher.hash.digest('hex');
      if (hasher.bytes !== expected.bytes || sha256 !== expected.sha256) {
        done(new BackupInvalidError(`${file} is damaged: ${hasher.bytes} bytes hashing to ${sha256}, where the backup recorded ${expected.bytes} bytes hashing to ${expected.sha256}`));
      } else done();
    },
  });
  await pipeline(createReadStream(file), check, sink);
}

/** The sha256 and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hasher = new Hasher();
  hasher.resume();
  await pipeline(createReadStream(file), hasher);
  return { bytes: hasher.bytes, sha256: hasher.hash.digest('hex') };
}
