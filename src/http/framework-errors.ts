import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, errors } from '../core/errors.js';

/** The longest path parameter the router takes (ids are UUIDs); longer ones are answered 414. */
export const MAX_PARAM_LENGTH = 100;

/** Errors Fastify raises before any route runs: the same `{"detail": ...}` as every other error, never the URL echoed. */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known: AppError | null =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.pathParameterTooLong(MAX_PARAM_LENGTH) : err.code === 'FST_ERR_BAD_URL' ? errors.badUrl() : null;
  if (!known) request.log.error({ err }, 'request failed');
  void reply.code(known?.status ?? 500).send({ detail: known?.detail ?? 'Internal server error' });
}

const answered = new WeakSet<Socket>();
/** How long a refused client may go on sending what it had started before its connection is closed. */
const DRAIN_MS = 5_000;

/**
 * Errors of the HTTP parser, before Fastify sees a request (headers over Node's limit, garbage). The answer is
 * written and the socket half-closed, and what the client still sends is read and dropped for a while: closing
 * with unread bytes makes the kernel reset the connection, and the client would lose the answer.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  const error =
    err.code === 'HPE_HEADER_OVERFLOW' ? errors.headersTooLarge(http.maxHeaderSize) : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? errors.requestTimeout() : errors.malformedRequest();
  const body = JSON.stringify({ detail: error.detail });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}
