import { describe, expect, it } from 'vitest';
import { retryModeFor } from '../../sdk/src/client.js';
import { backoffMs, retryAfterMs } from '../../sdk/src/retry.js';
import { parseEvents } from '../../sdk/src/sse.js';

describe('which requests the SDK repeats', () => {
  it.each([
    ['GET', '/api/v1/datasets', 'idempotent'],
    ['PATCH', '/api/v1/dataset/d', 'idempotent'],
    ['DELETE', '/api/v1/dataset/d', 'idempotent'],
    ['POST', '/api/v1/notifications/read-all', 'idempotent'],
    ['POST', '/api/v1/notifications/n/read', 'idempotent'],
    ['POST', '/api/v1/dataset/d/add_media', 'unsent'],
    ['POST', '/api/v1/ingestion/d/data_files/1', 'unsent'],
    ['POST', '/api/v1/dataset/d/snapshot', 'unsent'],
    ['GET', '/api/v1/ingestion/new_dataset', 'unsent'],
    ['GET', '/api/v1/ingestion/d/data_files', 'unsent'],
    ['GET', '/api/v1/dataset/d/export_context_async', 'unsent'],
  ])('%s %s is %s', (method, path, mode) => {
    expect(retryModeFor(method, path)).toBe(mode);
  });

  it('backs off with jitter between half and all of each doubling step, capped', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const step = Math.min(10_000, 300 * 2 ** attempt);
      const delay = backoffMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    }
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs(new Response(null, { headers: { 'retry-after': '2' } }))).toBe(2000);
    const later = retryAfterMs(new Response(null, { headers: { 'retry-after': new Date(Date.now() + 5000).toUTCString() } }))!;
    expect(later).toBeGreaterThan(3000);
    expect(later).toBeLessThanOrEqual(5000);
    expect(retryAfterMs(new Response(null, { headers: { 'retry-after': 'soon' } }))).toBeNull();
    expect(retryAfterMs(new Response(null))).toBeNull();
  });
});

describe('the event-stream parser', () => {
  it('splits events across chunks, joins data lines, skips comments and reads retry', async () => {
    const chunks = ['retry: 2500\n: a comment\nid: 7\nevent: notif', 'ication\ndata: {"a":\ndata: 1}\n\r\n', 'event: ping\r\ndata: not json\r\n\r\ndata: {"b":2}\n\n'];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    let retry = 0;
    const events = [];
    for await (const event of parseEvents(body, (ms) => (retry = ms))) events.push(event);
    expect(retry).toBe(2500);
    expect(events).toEqual([
      { id: '7', event: 'notification', data: { a: 1 } },
      { id: '', event: 'ping', data: 'not json' },
      { id: '', event: 'message', data: { b: 2 } },
    ]);
  });
});
