import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '../archives/build-archives.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type UploadFile, createDataset, form, openTransaction, photo, processFiles, upload, waitForDataset } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
});
afterAll(() => server?.close());

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
}

/** A valid PNG header declaring 50000×50000 RGB pixels; no pixel data follows (none is needed to refuse it). */
function hugePng(): UploadFile {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(50_000, 0);
  ihdr.writeUInt32BE(50_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return { name: 'huge.png', bytes: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', ihdr), pngChunk('IEND', Buffer.alloc(0))]) };
}

/** dog.jpg cut inside its EXIF segment: a JPEG header with no image data. */
const headerOnlyJpeg = (): UploadFile => ({ name: 'cut.jpg', bytes: photo('dog.jpg').bytes.subarray(0, 600) });

const TOO_LARGE = "File 'huge.png' declares 50000×50000 pixels, over the limit of 268402689";
const notes = (): UploadFile => ({ name: 'notes.txt', bytes: Buffer.from('not an image at all') });
const NOT_MEDIA = 'Unsupported file format: notes.txt (images: JPEG, PNG, WebP, AVIF, TIFF, GIF, BMP, HEIC; videos: MP4, MOV, WebM, MKV, AVI)';
const NO_DATA = "File 'cut.jpg' has no image data: the file ends after its header";

describe('data_files refuses images that can never decode', () => {
  it('400 naming the file and why; nothing of the request joins the transaction, and a good request still does', async () => {
    const created = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=undecodable');
    const datasetId = created.body.dataset_id as string;
    const transId = await openTransaction(server, owner, datasetId);

    expect(await upload(server, owner, datasetId, transId, [photo('person.jpg'), hugePng()])).toMatchObject({ status: 400, body: { detail: TOO_LARGE } });
    expect(await upload(server, owner, datasetId, transId, [headerOnlyJpeg(), photo('horses.jpg')])).toMatchObject({ status: 400, body: { detail: NO_DATA } });
    // Each file is checked while the next one streams in; the answer is still the first refused file's.
    expect(await upload(server, owner, datasetId, transId, [photo('dog.jpg'), headerOnlyJpeg(), notes()])).toMatchObject({ status: 400, body: { detail: NO_DATA } });
    expect(await upload(server, owner, datasetId, transId, [photo('dog.jpg'), notes(), headerOnlyJpeg()])).toMatchObject({ status: 400, body: { detail: NOT_MEDIA } });

    const good = await upload(server, owner, datasetId, transId, [photo('dog.jpg')]);
    expect(good.status).toBe(202);
    expect(good.body.files).toMatchObject([{ file_name: 'dog.jpg', format: 'jpeg' }]);
    expect((await processFiles(server, owner, datasetId, transId)).status).toBe(202);
    const dataset = await waitForDataset(server, owner, datasetId, ['READY', 'ERROR']);
    expect(dataset).toMatchObject({ status_new: 'READY', n_images: 1 });
  });
});

describe('add_media refuses images that can never decode', () => {
  it('400 naming the file and why; the dataset is unchanged, and a good batch is still taken', async () => {
    const { datasetId, dataset: before } = await createDataset(server, owner, 'add-undecodable', [[photo('dog.jpg')]]);
    expect(before).toMatchObject({ status_new: 'READY', n_images: 1 });
    const addMedia = (files: UploadFile[]) => server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form(files));

    expect(await addMedia([photo('person.jpg'), hugePng()])).toMatchObject({ status: 400, body: { detail: TOO_LARGE } });
    expect(await addMedia([headerOnlyJpeg()])).toMatchObject({ status: 400, body: { detail: NO_DATA } });
    expect(await addMedia([photo('person.jpg'), headerOnlyJpeg(), notes()])).toMatchObject({ status: 400, body: { detail: NO_DATA } });
    expect(await addMedia([photo('person.jpg'), notes(), hugePng()])).toMatchObject({ status: 400, body: { detail: NOT_MEDIA } });
    const after = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).body;
    expect(after).toMatchObject({ status_new: 'READY', n_images: 1 });
    expect((await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&task_type=MEDIA_ADDITION`)).body.tasks).toEqual([]);

    expect((await addMedia([photo('horses.jpg')])).status).toBe(202);
  });
});

describe('add_media archive entries that can never decode', () => {
  it('are skipped like non-media entries, and the rest of the archive is added', async () => {
    const { datasetId } = await createDataset(server, owner, 'archive-undecodable', [[photo('dog.jpg')]]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-undecodable-'));
    try {
      const zip = path.join(dir, 'batch.zip');
      await writeZip(zip, [{ name: 'horses.jpg', data: photo('horses.jpg').bytes }, { name: 'cut.jpg', data: headerOnlyJpeg().bytes }]);
      const body = form([{ name: 'batch.zip', bytes: fs.readFileSync(zip), field: 'archive' }]);
      expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, body)).status).toBe(202);
      const task = await waitFor(async () => {
        const [latest] = (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&task_type=MEDIA_ADDITION`)).body.tasks;
        return latest?.status === 'COMPLETED' || latest?.status === 'FAILED' ? latest : undefined;
      }, 60_000, 'MEDIA_ADDITION done');
      expect(task.status_message).toMatch(/Media added: 1 file\(s\).*1 archive entry skipped/);
      expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).body.n_images).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
