import type { FastifyRequest } from 'fastify';

/** Whether the closing delimiter `--boundary--` went by in the request body, watched as chunks arrive. */
export function watchClosingBoundary(request: FastifyRequest): () => boolean {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  if (!boundary) return () => true;
  const scanner = new DelimiterScanner(`--${boundary[1] ?? boundary[2]}--`);
  const onData = (chunk: Buffer) => {
    if (scanner.push(chunk)) request.raw.off('data', onData);
  };
  request.raw.on('data', onData);
  return () => scanner.seen;
}

/** Finds a byte string in a stream of chunks, also where a chunk boundary splits it, without copying the chunks. */
export class DelimiterScanner {
  private readonly delimiter: Buffer;
  private carry = Buffer.alloc(0);
  seen = false;

  constructor(delimiter: string) {
    this.delimiter = Buffer.from(delimiter);
  }

  push(chunk: Buffer): boolean {
    if (this.seen) return true;
    const keep = this.delimiter.length - 1;
    const junction = Buffer.concat([this.carry, chunk.subarray(0, keep)]);
    this.seen = junction.includes(this.delimiter) || chunk.includes(this.delimiter);
    this.carry = chunk.length >= keep ? Buffer.from(chunk.subarray(chunk.length - keep)) : junction.subarray(Math.max(0, junction.length - keep));
    return this.seen;
  }
}
