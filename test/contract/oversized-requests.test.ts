import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
});
afterAll(() => server?.close());

const HEADERS_TOO_LARGE = { detail: 'Request line and headers too large: the URL and headers together may be at most 16384 bytes' };

/** Writes a whole raw HTTP request, then reads until the server closes; a reset rejects. */
function rawRequest(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { port, hostname } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.write(request);
  });
}

describe('requests over the URL and header limits get a detail, not an echo of the URL', () => {
  it('414 for a path parameter over 100 characters', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${'a'.repeat(5_000)}/media`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ detail: 'A path parameter is longer than 100 characters' });
  });

  it('400 for a path with a malformed percent-encoding', async () => {
    const res = await server.api(owner.token, 'GET', '/api/v1/dataset/%E0%A4%A/media');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The URL path is not valid: it has a malformed percent-encoding' });
  });

  it('431 for a URL over 16 KB', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/datasets?name=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(HEADERS_TOO_LARGE);
  });

  it('431 with a detail, not a reset, for a 10 MB header sent whole; the server stays up', async () => {
    const res = await rawRequest(`GET /health HTTP/1.1\r\nHost: loupe\r\nX-Big: ${'a'.repeat(10_000_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual(HEADERS_TOO_LARGE);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('400 with a detail for bytes that are not HTTP', async () => {
    const res = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Malformed HTTP request' });
  });
});
