import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../core/errors.js';

/** One `bytes=` range of a `Range` header, resolved against the size; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges are legal but rare for media players: answer them with the whole file.
  if (!match) return header.includes(',') ? null : 'invalid';
  const [, from, to] = match;
  if (from === '' && to === '') return 'invalid';
  let start: number;
  let end: number;
  if (from === '') {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Stored bytes are what users uploaded: a browser must neither sniff them into another type nor run them as a page. */
export const BLOB_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" } as const;

/**
 * Answers with the whole body (200) or the one range the request asks for (206), setting the length and
 * range headers; an unsatisfiable range is a 416.
 */
export async function sendRanged(
  request: FastifyRequest,
  reply: FastifyReply,
  size: number,
  open: (range?: { start: number; end: number }) => Promise<Readable>,
): Promise<FastifyReply> {
  reply.headers(BLOB_HEADERS);
  const range = parseRange(request.headers.range, size);
  if (range === 'invalid') {
    reply.header('content-range', `bytes */${size}`);
    throw errors.rangeNotSatisfiable();
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
    return reply.send(await open(range));
  }
  return reply.header('content-length', size).send(await open());
}
