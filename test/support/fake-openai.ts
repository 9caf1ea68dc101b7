import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAi {
  baseUrl: string;
  /** Every request body received, parsed. */
  requests: Array<{ authorization: string | undefined; body: any }>;
  /** Answers wait until release() while held. */
  hold(): void;
  release(): void;
  /** The status every answer gets from now on (200 = a caption). */
  answerWith(status: number): void;
  close(): Promise<void>;
}

/** A small stand-in for an OpenAI-compatible vision endpoint: the caption names the image's size in bytes. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ authorization: req.headers.authorization, body });
      await gate;
      if (req.url !== '/v1/chat/completions' || status !== 200) {
        res.writeHead(req.url === '/v1/chat/completions' ? status : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'upstream trouble' } }));
        return;
      }
      const url: string = body.messages[0].content[1].image_url.url;
      const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').length;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `A photo of a zebracorn, ${bytes} bytes.` } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      open();
      gate = Promise.resolve();
    },
    answerWith(code) {
      status = code;
    },
    close: () =>
      new Promise((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
