import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, photo } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let datasetId: string;
let polyglot: Record<string, any>;

// A JPEG with a ZIP appended: stored and served as is, so the browser must be told not to guess its type.
const polyglotBytes = Buffer.concat([photo('dog.jpg').bytes, Buffer.from('504b0304140000000000' + '00'.repeat(40), 'hex')]);

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  ({ datasetId } = await createDataset(server, owner, 'blob-headers', [[{ name: 'polyglot.jpg', bytes: polyglotBytes }]]));
  const list = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media`);
  polyglot = list.body.media.find((m: { file_name: string }) => m.file_name === 'polyglot.jpg');
});
afterAll(async () => {
  // A keep-alive connection whose last answer was streamed bytes is not seen as idle by Node; the server's close cuts
  // it after its drain time, and one plain answer on it first (it is reused, the requests being sequential) spares that.
  await fetch(`${server.url}/health`).then((res) => res.arrayBuffer()).catch(() => {});
  await server?.close();
});

/** Checks the headers and reads the body: a response left unread holds its connection open and the server's close waits on it. */
async function expectGuarded(res: Response): Promise<void> {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  await res.arrayBuffer();
}

describe('media bytes are never sniffed or run as a page', () => {
  it('original, thumbnail and preview carry nosniff and a sandboxing CSP', async () => {
    for (const uri of [polyglot.media_uri, polyglot.media_thumb_uri, polyglot.media_preview_uri]) {
      const res = await fetch(uri);
      expect(res.status).toBe(200);
      await expectGuarded(res);
    }
  });

  it('so do a range, an unsatisfiable range and a 304', async () => {
    const part = await fetch(polyglot.media_uri, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    await expectGuarded(part);
    const bad = await fetch(polyglot.media_uri, { headers: { range: `bytes=${polyglotBytes.length + 5}-` } });
    expect(bad.status).toBe(416);
    await expectGuarded(bad);
    const again = await fetch(polyglot.media_uri, { headers: { 'if-none-match': part.headers.get('etag')! } });
    expect(again.status).toBe(304);
    await expectGuarded(again);
  });

  it('an export download carries them too', async () => {
    const started = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/export_context_async?file_name=h&export_format=json`);
    expect(started.status).toBe(200);
    const done = await waitFor(async () => {
      const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/export_status?export_task_id=${started.body.id}`);
      return res.body.status === 'COMPLETED' ? res.body : undefined;
    }, 60_000, 'export completed');
    const res = await fetch(done.download_uri);
    expect(res.status).toBe(200);
    await expectGuarded(res);
  });
});
