import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The upload is larger than it may be; nothing of it is kept. */
export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`upload larger than ${limit} bytes`);
  }
}

/**
 * An uploaded file kept in a temporary folder of its own, for readers that need a path (zip's random
 * access, image decoding) or that must wait until the rest of the form is read. `dispose()` removes it.
 */
export class SpooledFile {
  /** Bytes spooled. */
  size = 0;

  private constructor(
    readonly name: string,
    private readonly dir: string,
  ) {}

  get path(): string {
    return path.join(this.dir, 'upload');
  }

  /** Writes the stream to a new temporary folder; rejects with UploadTooLargeError past `maxBytes`. */
  static async spool(stream: Readable, name: string, maxBytes: number): Promise<SpooledFile> {
    const file = new SpooledFile(name, await mkdtemp(path.join(os.tmpdir(), 'loupe-upload-')));
    try {
      await pipeline(
        stream,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            file.size += chunk.length;
            if (file.size > maxBytes) throw new UploadTooLargeError(maxBytes);
            yield chunk;
          }
        },
        createWriteStream(file.path),
      );
      return file;
    } catch (err) {
      await file.dispose();
      throw err;
    }
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
