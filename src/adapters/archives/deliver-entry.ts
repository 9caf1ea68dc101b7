import { PassThrough, type Writable } from 'node:stream';
import type { EntryMeter } from './archive-budget.js';
import { asRefusal, type OnArchiveEntry } from './archive-types.js';

/** Pumps one entry into a fresh stream for the callback, metering every chunk; a refusal outranks the callback's error. */
export async function deliverEntry(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  entry: { path: string; size: number; head: Buffer },
  meter: EntryMeter,
  onEntry: OnArchiveEntry,
  signal?: AbortSignal,
): Promise<void> {
  const stream = new PassThrough();
  // readArchive reports every failure; a callback that stopped listening must not crash the process.
  stream.on('error', () => undefined);
  let callbackFailed = false;
  const consumed = onEntry({ ...entry, stream }).then(
    () => void stream.resume(), // whatever the callback left unread is drained
    (error: unknown) => {
      callbackFailed = true;
      stream.destroy();
      throw error;
    },
  );
  // A reader stuck on a slow consumer would not see the abort until the next chunk.
  const onAbort = (): void => void stream.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  const pumped = pump(source, stream, meter, () => callbackFailed, signal);
  const [callback, pump_] = await Promise.allSettled([consumed, pumped]);
  signal?.removeEventListener('abort', onAbort);
  if (pump_.status === 'rejected') throw pump_.reason;
  if (callback.status === 'rejected') throw callback.reason;
}

async function pump(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  sink: PassThrough,
  meter: EntryMeter,
  stopped: () => boolean,
  signal?: AbortSignal,
): Promise<void> {
  try {
    for await (const chunk of source) {
      signal?.throwIfAborted();
      if (stopped()) return;
      meter.add(chunk.length);
      await write(sink, chunk);
    }
    signal?.throwIfAborted();
    meter.finish();
    if (!sink.destroyed) sink.end();
  } catch (error) {
    const refusal = asRefusal(error, signal);
    sink.destroy(refusal instanceof Error ? refusal : undefined);
    throw refusal;
  }
}

/** Waits for the reader to catch up, or drops the chunk if it has gone (the entry is still metered to its end). */
async function write(sink: Writable, chunk: Buffer): Promise<void> {
  if (sink.destroyed || sink.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      sink.off('drain', done);
      sink.off('close', done);
      resolve();
    };
    sink.on('drain', done);
    sink.on('close', done);
  });
}

/** An entry's first bytes, read to judge it: `source` yields them again, then the rest; `ended` when they are all of it. */
export interface PeekedEntry {
  head: Buffer;
  source: AsyncIterable<Buffer> | Iterable<Buffer>;
  ended: boolean;
}

/** Reads an entry's first `bytes` bytes without losing them. A small entry ends here, with no generator made for it. */
export async function peek(entry: AsyncIterable<Buffer>, bytes: number): Promise<PeekedEntry> {
  const chunks = entry[Symbol.asyncIterator]();
  const read: Buffer[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await chunks.next();
    if (next.done) return { head: joined(read, bytes), source: read, ended: true };
    read.push(next.value);
    length += next.value.length;
  }
  return { head: joined(read, bytes), source: replay(read, chunks), ended: false };
}

function joined(read: Buffer[], bytes: number): Buffer {
  return (read.length === 1 ? read[0]! : Buffer.concat(read)).subarray(0, bytes);
}

async function* replay(read: Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield* read;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
