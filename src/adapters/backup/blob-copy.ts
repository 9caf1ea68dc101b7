import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { BLOB_REFERENCES } from '../db/blob-references.js';
import { BlobNotFoundError, type BlobStore, assertBlobHash } from '../blobs/blob-store.js';
import { writeHashed } from './hashed-files.js';
import { BackupInvalidError } from './manifest.js';

/** Every blob hash a row references, distinct and sorted, for COPY ... TO: of every row, ended tasks' included. */
export const BLOB_REFERENCES_COPY = `copy (select distinct h from (
    ${BLOB_REFERENCES.map((r) => `select ${r.column} as h from ${r.table}`).join('\n    union all ')}) refs
  where h is not null order by h) to stdout`;

/** Blobs in flight at once: a remote store answers each request in tens of milliseconds. */
const PARALLEL = 4;

/** Where a blob lives in a backup, as in the file store: blobs/ab/cd/<sha256>. */
export const blobPath = (root: string, hash: string) => path.join(root, hash.slice(0, 2), hash.slice(2, 4), hash);

/** The hashes of a list file, one a line, read as a stream. */
async function* hashesOf(listFile: string): AsyncGenerator<string> {
  const lines = readline.createInterface({ input: createReadStream(listFile), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield line;
}

/** Runs `work` on every item, PARALLEL at a time, pulling items from `items` only as workers free up. */
async function forEachParallel(items: AsyncIterator<string>, work: (hash: string) => Promise<void>): Promise<void> {
  let failed = false;
  const worker = async () => {
    while (!failed) {
      const next = await items.next();
      if (next.done) return;
      try {
        await work(next.value);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  // Every worker ends before the first failure is thrown: the caller's cleanup must not race a copy still writing.
  const settled = await Promise.allSettled(Array.from({ length: PARALLEL }, worker));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
}

export interface BlobProgress {
  count: number;
  bytes: number;
}

/** Copies every blob of the list out of the store into `root`, each checked against its name. */
export async function copyBlobsOut(store: BlobStore, listFile: string, root: string, progress: (done: BlobProgress) => void, signal?: AbortSignal): Promise<BlobProgress> {
  const done = { count: 0, bytes: 0 };
  await forEachParallel(hashesOf(listFile)[Symbol.asyncIterator](), async (hash) => {
    signal?.throwIfAborted();
    assertBlobHash(hash);
    const source = await store.open(hash).catch((err: unknown) => {
      // Referenced in the snapshot, gone since: only the sweep deletes blobs, an hour (BLOB_GC_GRACE_SECONDS) after they lost their last reference.
      if (err instanceof BlobNotFoundError) throw new Error(`blob ${hash}, which the database references, is missing from the blob store; nothing was backed up`);
      throw err;
    });
    const written = await writeHashed(source, blobPath(root, hash));
    if (written.sha256 !== hash) throw new Error(`blob ${hash} in the blob store is damaged: its bytes hash to ${written.sha256}; nothing was backed up`);
    done.count += 1;
    done.bytes += written.bytes;
    progress(done);
  });
  return done;
}

/** Puts every blob of the backup's list into the store; the store hashes what it takes, and any blob whose bytes are not its name stops the restore. */
export async function putBlobsBack(store: BlobStore, listFile: string, root: string, progress: (done: BlobProgress) => void, signal?: AbortSignal): Promise<BlobProgress> {
  const done = { count: 0, bytes: 0 };
  await forEachParallel(hashesOf(listFile)[Symbol.asyncIterator](), async (hash) => {
    signal?.throwIfAborted();
    assertBlobHash(hash);
    const file = blobPath(root, hash);
    await fs.access(file).catch(() => {
      throw new BackupInvalidError(`blob ${hash} is listed in the backup but its file ${file} is missing`);
    });
    const stored = await store.put(createReadStream(file), { signal });
    if (stored.hash !== hash) {
      // What the store took is not the blob asked for: it goes again (no row names it).
      await store.delete(stored.hash);
      throw new BackupInvalidError(`blob ${hash} in the backup is damaged: its bytes hash to ${stored.hash}`);
    }
    done.count += 1;
    done.bytes += stored.size;
    progress(done);
  });
  return done;
}
