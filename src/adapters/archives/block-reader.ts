import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

const BLOCK_BYTES = 1024 * 1024;
const BLOCKS_KEPT = 4;

/**
 * yauzl's random access to a zip on disk through a few cached 1 MB blocks. Its own reader makes a file read per
 * central-directory record and per local header: a zip of 100,000 tiny entries waited on several hundred thousand
 * reads, about 2 ms each on a busy machine.
 */
export class BlockReader extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();

  private constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {
    super();
  }

  static async open(filePath: string): Promise<BlockReader> {
    const file = await open(filePath, 'r');
    try {
      return new BlockReader(file, (await file.stat()).size);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.range(start, end), { objectMode: false });
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const copy = async (): Promise<void> => {
      let at = offset;
      for await (const chunk of this.range(position, position + length)) at += chunk.copy(buffer, at);
    };
    copy().then(() => callback(null), (error: Error) => callback(error));
  }

  override close(callback: (err: Error | null) => void): void {
    this.file.close().then(() => callback(null), (error: Error) => callback(error));
  }

  private async *range(start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at < end; ) {
      const index = Math.floor(at / BLOCK_BYTES);
      const block = await this.block(index);
      const from = at - index * BLOCK_BYTES;
      const to = Math.min(block.length, end - index * BLOCK_BYTES);
      if (to <= from) throw new Error('unexpected end of file');
      yield Buffer.from(block.subarray(from, to)); // a copy: a kept slice would hold the whole block
      at += to - from;
    }
  }

  /** Reads are mostly forward and close together: the last few blocks serve them. */
  private block(index: number): Promise<Buffer> {
    let block = this.blocks.get(index);
    if (block) {
      this.blocks.delete(index);
    } else {
      block = this.file.read(Buffer.alloc(BLOCK_BYTES), 0, BLOCK_BYTES, index * BLOCK_BYTES).then(({ buffer, bytesRead }) => buffer.subarray(0, bytesRead));
      block.catch(() => this.blocks.delete(index));
    }
    this.blocks.set(index, block);
    if (this.blocks.size > BLOCKS_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
    return block;
  }
}
