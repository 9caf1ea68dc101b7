import { createReadStream, type ReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar, { type Extract, type Header } from 'tar-stream';
import type { ArchiveBudget } from './archive-budget.js';
import { ENTRY_HEAD_BYTES, asRefusal, type EntryScreen, type OnArchiveEntry, type SkippedEntry } from './archive-types.js';
import { deliverEntry, peek } from './deliver-entry.js';
import { judgeEntryPath, reportedPath, type PathVerdict } from './entry-paths.js';

type Entry = AsyncIterable<Buffer> & { header: Header };

const SKIPPED_TYPES: Record<string, string> = {
  symlink: 'symbolic link',
  link: 'hard link',
  'character-device': 'device or special file',
  'block-device': 'device or special file',
  fifo: 'device or special file',
};

/** One streaming pass: limits are checked per header as it arrives, so a refusal can come after entries were delivered. */
export async function readTar(
  filePath: string,
  gzipped: boolean,
  onEntry: OnArchiveEntry,
  budget: ArchiveBudget,
  options: { signal?: AbortSignal; screen?: EntryScreen } = {},
): Promise<SkippedEntry[]> {
  const { signal, screen } = options;
  signal?.throwIfAborted();
  const file = createReadStream(filePath);
  const extract = tar.extract();
  const stages = gzipped ? [file, createGunzip(), expansionGuard(file, budget), extract] : [file, extract];
  // Its failure also ends the entry iterator below, which is where it is reported.
  const piping = pipeline(stages, { signal }).then(() => null, (error: unknown) => error);
  const skipped: SkippedEntry[] = [];
  try {
    for await (const entry of tarEntries(extract, signal)) {
      const { header } = entry;
      const size = header.size;
      budget.countEntries();
      const verdict = judgeTarEntry(header);
      if (!('directory' in verdict)) budget.declare(header.name, size);
      if ('path' in verdict) {
        const { head, source, ended } = await peek(entry, ENTRY_HEAD_BYTES).catch((error: unknown): never => { throw asRefusal(error, signal); });
        const reason = screen?.({ path: verdict.path, size, head }) ?? null;
        if (reason === null) {
          await deliverEntry(source, { path: verdict.path, size, head }, budget.meter(verdict.path, size), onEntry, signal);
          continue;
        }
        skipped.push({ path: reportedPath(header.name), reason });
        if (!ended) await drain(source, signal);
        continue;
      }
      if ('skip' in verdict) skipped.push({ path: reportedPath(header.name), reason: verdict.skip });
      await drain(entry, signal);
    }
    const failure = await piping;
    if (failure !== null) throw asRefusal(failure, signal);
  } finally {
    extract.destroy();
    file.destroy();
  }
  return skipped;
}

function judgeTarEntry(header: Header): PathVerdict {
  if (header.type === 'directory') return { directory: true };
  const verdict = judgeEntryPath(header.name);
  if (!('path' in verdict)) return verdict;
  if (header.type === 'file' || header.type === 'contiguous-file') return verdict;
  // tar-stream leaves `type` null for flags it does not know (sparse files, volume labels).
  return { skip: SKIPPED_TYPES[String(header.type)] ?? 'unsupported entry type' };
}

async function* tarEntries(extract: Extract, signal?: AbortSignal): AsyncGenerator<Entry> {
  const entries = extract[Symbol.asyncIterator]();
  for (;;) {
    signal?.throwIfAborted();
    const next = await entries.next().catch((error: unknown): never => { throw asRefusal(error, signal); });
    if (next.done) return;
    yield next.value as Entry; // streamx types chunks as unknown; an entry without an encoding yields Buffers
  }
}

/** Skipped entries' bytes still have to be read past; a tar stream has no index to seek with. */
async function drain(entry: AsyncIterable<Buffer> | Iterable<Buffer>, signal?: AbortSignal): Promise<void> {
  try {
    for await (const chunk of entry) void chunk;
  } catch (error) {
    throw asRefusal(error, signal);
  }
}

/** Watches what gunzip produces against what was read from disk: the gzip bomb check, headers aside. */
function expansionGuard(file: ReadStream, budget: ArchiveBudget): Transform {
  let expanded = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      expanded += chunk.length;
      try {
        budget.checkRatio('the gzip stream', expanded, file.bytesRead);
        budget.checkExpandedTar(expanded);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
