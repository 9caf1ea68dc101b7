import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the test server that records the file names of every upload batch the
 * server answered, and can hold upload batches unanswered (as a stalled link would) so a test can interrupt the CLI.
 */
export interface UploadProxy {
  url: string;
  /** The file names of each data_files request the server answered with 202, in order. */
  accepted: string[][];
  /** From now on, data_files requests after the first `n` are held; the promise settles when one is. */
  holdAfter(n: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

const UPLOAD = /\/api\/v1\/ingestion\/[^/]+\/data_files\/\d+$/;

export async function startUploadProxy(target: string): Promise<UploadProxy> {
  const accepted: string[][] = [];
  let uploads = 0;
  let limit = Infinity;
  let onHold: (() => void) | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upload = req.method === 'POST' && UPLOAD.test(req.url ?? '');
      if (upload && ++uploads > limit) {
        onHold?.();
        return; // never answered, never forwarded
      }
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
        if (upload && answer.statusCode === 202) accepted.push([...body.toString('latin1').matchAll(/filename="([^"]*)"/g)].map((m) => m[1]!));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    holdAfter(n) {
      uploads = 0;
      limit = n;
      return new Promise<void>((resolve) => (onHold = resolve));
    },
    release() {
      limit = Infinity;
      onHold = null;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
