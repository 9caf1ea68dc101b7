import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** What the proxy does with a request: pass it on, answer it itself, or drop the connection. */
export type Plan = { pass: true; after?: Promise<void> } | { status: number; headers?: Record<string, string>; body?: unknown } | { drop: 'at-once' | 'mid-body' };

export interface Proxy {
  url: string;
  seen: Seen[];
  /** Decides each request; passes everything on until set. */
  plan: (req: Seen, index: number) => Plan;
  /** Cuts every open passed-on response (an event stream, say) as a dropped connection would. */
  cut(): void;
  close(): Promise<void>;
}

/** A real HTTP proxy on a free port in front of the test server: it records requests and answers or fails them as told. */
export async function startProxy(target: string): Promise<Proxy> {
  const open = new Set<http.ServerResponse>();
  const proxy: Proxy = {
    url: '',
    seen: [],
    plan: () => ({ pass: true }),
    cut: () => {
      for (const res of open) res.socket?.destroy();
      open.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const seen = { method: req.method!, url: req.url!, headers: req.headers };
    proxy.seen.push(seen);
    const plan = proxy.plan(seen, proxy.seen.length - 1);
    if ('drop' in plan) {
      if (plan.drop === 'at-once') return req.socket.destroy();
      // Reads part of the body, then drops: the server may have acted on what it had.
      return req.once('data', () => req.socket.destroy());
    }
    if ('status' in plan) {
      // The body is drained unread, as a server refusing a request before its handler runs.
      req.resume();
      req.once('end', () => {
        res.writeHead(plan.status, { 'content-type': 'application/json', ...plan.headers });
        res.end(plan.body === undefined ? '' : JSON.stringify(plan.body));
      });
      return;
    }
    const forward = () => {
      const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        open.add(res);
        res.once('close', () => open.delete(res));
        answer.pipe(res);
        res.once('close', () => answer.destroy());
      });
      upstream.once('error', () => res.socket?.destroy());
      req.pipe(upstream);
    };
    // A held request waits (unanswered, as on a slow network) until its promise settles.
    if (plan.after) void plan.after.then(forward);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = proxy.close;
  proxy.close = async () => {
    proxy.cut();
    server.closeAllConnections();
    await close();
  };
  return proxy;
}
