import { addAbortSignal, pipeline } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import copyBinary, { type FieldMapping } from 'pg-copy-streams-binary';

/**
 * The rows of `copy (query) to stdout (format binary)` on `client`: binary COPY hands each bytea over as it is stored,
 * where a paged select sends it as hex text to parse back (200k vectors: 6 s against 25 s). An abort ends the stream
 * with a generic AbortError; it surfaces as the abort's own reason. The caller owns the connection (copyRowsOf).
 */
export async function* copyRows<R>(client: pg.ClientBase, query: string, mapping: FieldMapping[], signal: AbortSignal): AsyncGenerator<R> {
  signal.throwIfAborted();
  try {
    const copy = client.query(copyTo(`copy (${query}) to stdout (format binary)`));
    yield* addAbortSignal(signal, pipeline(copy, copyBinary.rowReader({ mapping }), () => {})) as AsyncIterable<R>;
  } catch (err) {
    throw signal.aborted ? signal.reason : err;
  }
}

/**
 * copyRows on a connection of its own from `pool`. A COPY not read to its end — failed, aborted, or left by a reader
 * that threw or stopped early — leaves the connection mid-protocol: it is then dropped, not handed back.
 */
export async function* copyRowsOf<R>(pool: pg.Pool, query: string, mapping: FieldMapping[], signal: AbortSignal): AsyncGenerator<R> {
  signal.throwIfAborted();
  const client = await pool.connect();
  let finished = false;
  try {
    yield* copyRows<R>(client, query, mapping, signal);
    finished = true;
  } finally {
    client.release(!finished);
  }
}
