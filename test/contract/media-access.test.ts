import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, photo } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let stranger: TestUser;
let datasetId: string;
let dog: Record<string, any>;
const dogBytes = photo('dog.jpg').bytes;

beforeAll(async () => {
  server = await startTestServer();
  [owner, stranger] = await Promise.all([server.createUser(), server.createUser()]);
  ({ datasetId } = await createDataset(server, owner, 'media', [[photo('dog.jpg'), photo('chelsea.png')]]));
  const list = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media`);
  dog = list.body.media.find((m: { file_name: string }) => m.file_name === 'dog.jpg');
});
afterAll(() => server?.close());

const raw = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe('GET /api/v1/dataset/{id}/media/{media_id}', () => {
  it('returns the facts and signed links', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${dog.media_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      media_id: dog.media_id,
      dataset_id: datasetId,
      media_type: 'IMAGE',
      file_name: 'dog.jpg',
      file_size: dogBytes.length,
      width: 768,
      height: 576,
      quality_flags: expect.any(Array),
      frames: [],
      caption: null,
      objects: [],
      media_uri: expect.stringMatching(new RegExp(`^${server.url}/api/v1/dataset/${datasetId}/media/${dog.media_id}/original\\?expires=\\d+&signature=`)),
    });
  });

  it('404 for a stranger, for an unknown media and for media of another dataset', async () => {
    expect((await server.api(stranger.token, 'GET', `/api/v1/dataset/${datasetId}/media/${dog.media_id}`)).status).toBe(404);
    expect(await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${crypto.randomUUID()}`)).toMatchObject({ status: 404, body: { detail: 'Media not found' } });
    const other = await createDataset(server, stranger, 'other', [[photo('person.jpg')]]);
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${other.datasetId}/media/${dog.media_id}`)).status).toBe(404);
    expect((await server.api(stranger.token, 'GET', `/api/v1/dataset/${other.datasetId}/media/${dog.media_id}`)).status).toBe(404);
  });
});

describe('media bytes', () => {
  it('serves the original through its signed link with no other credentials, byte for byte', async () => {
    const res = await raw(dog.media_uri);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const body = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(dogBytes).digest('hex'));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
  });

  it('serves a WebP thumbnail (long side 256) and a JPEG preview', async () => {
    const thumb = await raw(dog.media_thumb_uri);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const sharp = (await import('sharp')).default;
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 192 });
    const preview = await raw(dog.media_preview_uri);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
  });

  it('answers a Range with 206 and the exact bytes, an unsatisfiable one with 416', async () => {
    const res = await raw(dog.media_uri, { range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${dogBytes.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(dogBytes.subarray(100, 200))).toBe(true);
    const tail = await raw(dog.media_uri, { range: 'bytes=-10' });
    expect(Buffer.from(await tail.arrayBuffer()).equals(dogBytes.subarray(dogBytes.length - 10))).toBe(true);
    const bad = await raw(dog.media_uri, { range: `bytes=${dogBytes.length + 5}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${dogBytes.length}`);
  });

  it('answers If-None-Match with 304', async () => {
    const first = await raw(dog.media_uri);
    const again = await raw(dog.media_uri, { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('401 for a tampered or missing signature; a bearer token works instead', async () => {
    // Change the signature's first character to a different one (a fixed 'x' would equal it one time in 64).
    const tampered = dog.media_uri.replace(/signature=(.)/, (_: string, c: string) => `signature=${c === 'x' ? 'y' : 'x'}`);
    expect((await raw(tampered)).status).toBe(401);
    const unsigned = dog.media_uri.split('?')[0];
    expect((await raw(unsigned)).status).toBe(401);
    expect((await raw(unsigned, { authorization: `Bearer ${owner.token}` })).status).toBe(200);
    expect((await raw(unsigned, { authorization: `Bearer ${stranger.token}` })).status).toBe(404);
  });
});
