import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../adapters/blobs/blob-store.js';
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

/** Where downloads come from: the blob store, and whether its bytes pass through the API even when it has links (BLOB_PROXY). */
export interface BlobDownloads {
  blobs: BlobStore;
  proxy: boolean;
}

/** How long a redirect to the blob store's own URL stays valid: enough to start the download (or a ranged read) it answers. */
const REDIRECT_SECONDS = 300;

/**
 * A blob download: a redirect (302) to the store's own URL for it when the store has one and BLOB_PROXY is off, with
 * the response's content type and disposition carried in that URL; otherwise the bytes through the API (sendRanged).
 * The caller has checked access already, so the redirect is as good as the bytes.
 */
export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  store: BlobDownloads,
  blob: { hash: string; size: number; contentType: string; disposition: string },
): Promise<FastifyReply> {
  if (!store.proxy && store.blobs.downloadLink) {
    const location = await store.blobs.downloadLink(blob.hash, { contentType: blob.contentType, disposition: blob.disposition, expiresInSeconds: REDIRECT_SECONDS });
    return reply.code(302).header('cache-control', 'no-store').redirect(location);
  }
  reply.type(blob.contentType).header('content-disposition', blob.disposition);
  return sendRanged(request, reply, blob.size, (range) => store.blobs.open(blob.hash, range));
}

/** `attachment` (or `inline`) naming the file, ASCII for old clients and UTF-8 (RFC 6266) for the rest. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  return `${kind}; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
