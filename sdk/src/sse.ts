import type { Transport } from './client.js';
import { LoupeError } from './errors.js';
import { backoffMs, sleep } from './retry.js';

export interface StreamEvent {
  /** The event's `id:` (a notification's sequence number); '' for events without one (pings). */
  id: string;
  event: string;
  data: any;
}

export interface NotificationStreamOptions {
  datasetId?: string;
  /** Resume after this event id: the server first sends what came after it. */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Yield the server's `ping` events too (every 3 s), e.g. to show the stream is alive. */
  pings?: boolean;
  /** Called before each reconnect, with the id it resumes from. */
  onReconnect?: (lastEventId: string | null, attempt: number) => void;
}

/** Splits an event-stream body into events (the SSE format: `field: value` lines, a blank line ends an event). */
export async function* parseEvents(body: ReadableStream<Uint8Array>, onRetry: (ms: number) => void): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = { id: '', event: 'message', data: [] as string[] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (event.data.length) {
          const text = event.data.join('\n');
          let data: unknown = text;
          try {
            data = JSON.parse(text);
          } catch {
            data = text;
          }
          yield { id: event.id, event: event.event, data };
        }
        event = { id: '', event: 'message', data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') event.data.push(value);
      else if (field === 'event') event.event = value;
      else if (field === 'id') event.id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
    }
  }
}

/**
 * GET /api/v1/notifications/stream as events. After a dropped connection it reconnects with Last-Event-ID (the last
 * id seen) after a backoff, so nothing is missed; it stops on the signal, on a break out of the loop, or on an
 * error answer (4xx) or after `retries` failed reconnects in a row.
 */
export async function* notificationStream(t: Transport, retries: number, options: NotificationStreamOptions = {}): AsyncIterableIterator<StreamEvent> {
  let lastEventId = options.lastEventId ?? null;
  let retryMs = 3000;
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let failures = 0;
  try {
    for (;;) {
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream' };
        if (lastEventId) headers['last-event-id'] = lastEventId;
        const response = await t.send('GET', '/api/v1/notifications/stream', { query: { dataset_id: options.datasetId }, headers, signal: stop.signal });
        failures = 0;
        for await (const event of parseEvents(response.body!, (ms) => (retryMs = ms))) {
          if (event.id) lastEventId = event.id;
          if (event.event === 'ping' && !options.pings) continue;
          yield event;
        }
      } catch (err) {
        if (stop.signal.aborted) return;
        if (err instanceof LoupeError && err.status >= 400 && err.status < 500 && err.status !== 429) throw err;
        if (++failures > retries) throw err;
      }
      if (stop.signal.aborted) return;
      // The stream ended or broke: wait (the server's retry: hint, or a growing backoff), then resume after the last id.
      options.onReconnect?.(lastEventId, failures);
      await sleep(failures === 0 ? Math.min(retryMs, 1000) : Math.max(retryMs, backoffMs(failures)), stop.signal).catch(() => {});
      if (stop.signal.aborted) return;
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
