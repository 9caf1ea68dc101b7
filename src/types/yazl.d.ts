// yazl ships no types and @types/yazl is not installed: just what Loupe and its tests call.
declare module 'yazl' {
  import type { EventEmitter } from 'node:events';
  import type { Readable } from 'node:stream';

  interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    compressionLevel?: number;
    size?: number;
  }

  export class ZipFile extends EventEmitter {
    outputStream: Readable;
    addBuffer(data: Buffer, metadataPath: string, options?: EntryOptions): void;
    addReadStream(stream: Readable, metadataPath: string, options?: EntryOptions): void;
    /** The stream is asked for only when the entry's turn comes, so queued entries hold no open files. */
    addReadStreamLazy(
      metadataPath: string,
      options: EntryOptions,
      getReadStream: (callback: (err: Error | null, stream?: Readable) => void) => void,
    ): void;
    addEmptyDirectory(metadataPath: string, options?: { mtime?: Date; mode?: number }): void;
    end(options?: { forceZip64Format?: boolean }): void;
  }
}
