import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let readyId: string;
let newId: string;
let transId: number;

const BOUNDARY = 'loupe-test-boundary';
const header = (field: string, fileName?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"${fileName === undefined ? '' : `; filename="${fileName}"\r\nContent-Type: application/octet-stream`}\r\n\r\n`;
/** One file part and no closing boundary: the body ends inside the file. */
const truncatedFile = (field: string, fileName = 'dog.jpg') => Buffer.concat([Buffer.from(header(field, fileName)), photo('dog.jpg').bytes]);
const closed = (parts: Buffer) => Buffer.concat([parts, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);

async function post(route: string, body: Buffer | string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  const res = await fetch(`${server.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown };
}

const routes = () => ({
  ingestion: { route: `/api/v1/ingestion/${newId}/data_files/${transId}`, file: 'files' },
  add_media: { route: `/api/v1/dataset/${readyId}/add_media`, file: 'files' },
  custom_metadata: { route: `/api/v1/dataset/${readyId}/custom_metadata`, file: 'file' },
  image_anchor: { route: `/api/v1/dataset/${readyId}/search-image-similarity`, file: 'file' },
});

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  ({ datasetId: readyId } = await createDataset(server, owner, 'kept', [[photo('dog.jpg'), photo('person.jpg')]]));
  newId = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=growing')).body.dataset_id;
  transId = await openTransaction(server, owner, newId);
  expect((await upload(server, owner, newId, transId, [photo('horses.jpg')])).status).toBe(202);
}, 120_000);
afterAll(() => server?.close());

describe('a multipart body the parser cannot read', () => {
  it('is a 400 with a detail on every upload route when the content type has no boundary', async () => {
    for (const [name, { route }] of Object.entries(routes())) {
      expect(await post(route, 'hello', 'multipart/form-data'), name).toEqual({ status: 400, body: { detail: 'Malformed multipart body: Multipart: Boundary not found' } });
    }
    for (const route of [`/api/v1/dataset/${readyId}/views`, `/api/v1/dataset/${readyId}/share`]) {
      expect(await post(route, 'hello', 'multipart/form-data'), route).toEqual({ status: 400, body: { detail: 'Malformed multipart body: Multipart: Boundary not found' } });
    }
  });

  it('is a 400 with a detail when the body ends inside a file, inside a field or before its closing boundary', async () => {
    const detail = 'Malformed multipart body: Part terminated early due to unexpected end of multipart data';
    for (const [name, { route, file }] of Object.entries(routes())) {
      expect(await post(route, truncatedFile(file)), name).toEqual({ status: 400, body: { detail } });
    }
    const unclosed = { status: 400, body: { detail: 'Malformed multipart body: the body ended before its closing boundary' } };
    const addMedia = `/api/v1/dataset/${readyId}/add_media`;
    expect(await post(addMedia, Buffer.from(`${header('s3_uri')}s3://media/batch`))).toEqual(unclosed);
    expect(await post(addMedia, 'no delimiter at all')).toEqual(unclosed);
    expect(await post(`/api/v1/dataset/${readyId}/views`, Buffer.from(`${header('name')}half a na`))).toEqual(unclosed);
    expect(await post(`/api/v1/dataset/${readyId}/share`, Buffer.from(`${header('user_email')}someone@exa`))).toEqual(unclosed);
  });

  it('refuses a NUL byte in a file name or a field with a 400', async () => {
    const { ingestion, add_media } = routes();
    const nulName = closed(truncatedFile('files', 'dog\0.jpg'));
    for (const route of [ingestion.route, add_media.route]) {
      expect(await post(route, nulName), route).toEqual({ status: 400, body: { detail: "The file name in field 'files' contains a NUL byte" } });
    }
    expect(await post(`/api/v1/dataset/${readyId}/views`, closed(Buffer.from(`${header('name')}a\0b`)))).toEqual({
      status: 400,
      body: { detail: "Field 'name' contains a NUL byte" },
    });
  });

  it('answers a file the upload refuses part-way, larger than the parser buffers (the refused stream once left it waiting)', async () => {
    const text = Buffer.alloc(300_000, 'not an image ');
    const body = closed(Buffer.concat([Buffer.from(header('files', 'notes.txt')), text]));
    const detail = 'Unsupported file format: notes.txt (images: JPEG, PNG, WebP, AVIF, TIFF, GIF, BMP, HEIC; videos: MP4, MOV, WebM, MKV, AVI)';
    const { ingestion, add_media } = routes();
    for (const [name, { route }] of Object.entries({ ingestion, add_media })) {
      expect(await post(route, body), name).toEqual({ status: 400, body: { detail } });
    }
  });

  it('leaves the server answering and every stored file in place', async () => {
    const ready = (await server.api(owner.token, 'GET', `/api/v1/dataset/${readyId}`)).body;
    expect(ready).toMatchObject({ status_new: 'READY', n_images: 2 });
    const tasks = (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${readyId}`)).body.tasks;
    expect(tasks.map((t: { task_type: string }) => t.task_type)).toEqual(['DATASET_CREATION']);

    // A transaction of its own, so the other tests keep theirs open whatever the order: the same broken bodies first.
    const ownId = (await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=kept-open')).body.dataset_id;
    const ownTrans = await openTransaction(server, owner, ownId);
    expect((await upload(server, owner, ownId, ownTrans, [photo('horses.jpg')])).status).toBe(202);
    const route = `/api/v1/ingestion/${ownId}/data_files/${ownTrans}`;
    for (const body of [truncatedFile('files'), closed(truncatedFile('files', 'dog\0.jpg'))]) expect((await post(route, body)).status).toBe(400);
    expect((await post(route, 'hello', 'multipart/form-data')).status).toBe(400);

    expect((await upload(server, owner, ownId, ownTrans, [photo('chelsea.png')])).status).toBe(202);
    expect((await processFiles(server, owner, ownId, ownTrans)).status).toBe(202);
    const created = await waitForDataset(server, owner, ownId, ['READY', 'ERROR']);
    expect(created).toMatchObject({ status_new: 'READY', n_images: 2 });
    const names = (await server.api(owner.token, 'GET', `/api/v1/dataset/${ownId}/media`)).body.media.map((m: { file_name: string }) => m.file_name);
    expect(names.sort()).toEqual(['chelsea.png', 'horses.jpg']);
  });
});
