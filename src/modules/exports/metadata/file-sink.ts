import { type WriteStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** Text appended to a local file with backpressure: the metadata is built on disk, never in memory. */
export class FileSink {
  private readonly stream: WriteStream;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path);
  }

  async write(text: string): Promise<void> {
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'close');
  }

  /** After a failure: the file is abandoned. */
  dispose(): void {
    this.stream.destroy();
  }
}
