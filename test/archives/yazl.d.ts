// yazl ships no types and @types/yazl is not installed: just what the archive tests call.
declare module 'yazl' {
  import type { Readable } from 'node:stream';

  interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    compressionLevel?: number;
    size?: number;
  }

  export class ZipFile {
    outputStream: Readable;
    addBuffer(data: Buffer, metadataPath: string, options?: EntryOptions): void;
    addReadStream(stream: Readable, metadataPath: string, options?: EntryOptions): void;
    addEmptyDirectory(metadataPath: string, options?: { mtime?: Date; mode?: number }): void;
    end(): void;
  }
}
