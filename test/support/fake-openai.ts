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
  /** The next `count` answers get `status`, then captions again. */
  failNext(count: number, status: number): void;
  /** Every answer waits this long first. */
  delay(ms: number): void;
  /** Most requests that were being answered at the same time. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** A small stand-in for an OpenAI-compatible vision endpoint: the caption names the image's size in bytes. */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  let status = 200;
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let delayMs = 0;
  let inFlight = 0;
  const fake = { maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ authorization: req.headers.authorization, body });
      inFlight += 1;
      fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
      // A caller that gave up (timeout) closes the connection: it is no longer in flight.
      let counted = true;
      const done = () => {
        if (counted) inFlight -= 1;
        counted = false;
      };
      res.once('close', done);
      await gate;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      done();
      let answer = status;
      if (failures.count > 0) {
        failures.count -= 1;
        answer = failures.status;
      }
      if (req.url !== '/v1/chat/completions' || answer !== 200) {
        res.writeHead(req.url === '/v1/chat/completions' ? answer : 404, { 'content-type': 'application/json' });
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
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      open();
      gate = Promise.resolve();
    },
    answerWith(code: number) {
      status = code;
    },
    failNext(count: number, code: number) {
      failures = { count, status: code };
    },
    delay(ms: number) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
