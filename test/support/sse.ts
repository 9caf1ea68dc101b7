import http from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every complete event so far, in order. */
  events: SseEvent[];
  /** The first event after those already consumed by `next` that passes `match`. */
  next(match?: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens a Server-Sent Events stream and reads it the way the documented Python client does: line by
 * line, `json.loads` on whatever follows `data: `. A data line that is not JSON fails the stream.
 */
export function openStream(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } });
    req.once('error', reject);
    req.once('response', (res) => {
      const events: SseEvent[] = [];
      const waiters: Array<() => void> = [];
      let consumed = 0;
      let buffer = '';
      let current: { id: string | null; event: string; data: any; hasData: boolean } = { id: null, event: 'message', data: undefined, hasData: false };
      let failure: Error | null = null;
      const wake = () => waiters.splice(0).forEach((w) => w());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.hasData) events.push({ id: current.id, event: current.event, data: current.data });
            current = { id: null, event: 'message', data: undefined, hasData: false };
          } else if (line.startsWith('data: ')) {
            try {
              current.data = JSON.parse(line.slice('data: '.length));
              current.hasData = true;
            } catch {
              failure = new Error(`data line is not JSON: ${line}`);
            }
          } else if (line.startsWith('event: ')) current.event = line.slice('event: '.length);
          else if (line.startsWith('id: ')) current.id = line.slice('id: '.length);
        }
        wake();
      });
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      void ended.then(wake);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ended,
        async next(match = () => true, timeoutMs = 15_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            if (failure) throw failure;
            while (consumed < events.length) {
              const e = events[consumed++]!;
              if (match(e)) return e;
            }
            if (res.closed && consumed >= events.length) throw new Error('stream ended');
            const left = deadline - Date.now();
            if (left <= 0) throw new Error('timed out waiting for an event');
            await new Promise<void>((wakeUp) => {
              const timer = setTimeout(wakeUp, left);
              waiters.push(() => {
                clearTimeout(timer);
                wakeUp();
              });
            });
          }
        },
        close: () => req.destroy(),
      });
    });
  });
}

export const isNotification = (e: SseEvent) => e.event === 'notification';
