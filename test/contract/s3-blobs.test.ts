import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startLoupe } from '../../src/server.js';
import { type S3rverHandle, startS3rver } from '../sources/s3rver-server.js';
import { exportArchive } from '../support/exports.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, tempDataDir } from '../support/server.js';

const KEY = 'a'.repeat(64);
const OTHER_KEY = 'b'.repeat(64);
const PHOTOS = ['dog.jpg', 'horses.jpg', 'person.jpg'];

let s3: S3rverHandle;
let admin: S3Client;
let server: TestServer;
let owner: TestUser;
let datasetId: string;

const blobEnv = () => ({ ...(s3.env as Record<string, string>), BLOB_URL: 's3://loupe/blobs', LOUPE_SECRET_KEY: KEY });
const objectKeys = async () => ((await admin.send(new ListObjectsV2Command({ Bucket: 'loupe' }))).Contents ?? []).map((o) => o.Key!);

/** The embedded database of `server` as another node reaches it: its unix socket, in a DATABASE_URL. */
function databaseUrlOf(target: TestServer): string {
  const { host, user, password, database } = target.loupe.container.database.connection;
  return `postgresql://${user}:${encodeURIComponent(String(password))}@localhost/${database}?host=${encodeURIComponent(String(host))}`;
}

beforeAll(async () => {
  s3 = await startS3rver();
  admin = s3.admin();
  await admin.send(new CreateBucketCommand({ Bucket: 'loupe' }));
  server = await startTestServer({ env: blobEnv() });
  owner = await server.createUser();
  const created = await createDataset(server, owner, 's3 blobs', [PHOTOS.map(photo)]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
}, 120_000);
afterAll(async () => {
  await server?.close();
  admin?.destroy();
  await s3?.close();
});

describe('blobs in an S3 bucket (BLOB_URL)', () => {
  it('keeps originals, thumbnails, previews, the ANN index and the k-NN graph in the bucket under their hashes, and none in DATA_DIR', async () => {
    // This install holds only this dataset: every blob its rows name is in the bucket, and the bucket holds nothing else.
    const { rows } = await server.loupe.container.database.pool.query(`select blob_hash as h from media union select thumb_hash from media
      union select preview_hash from media union select ann_blob_hash from version_indexes union select graph_blob_hash from version_indexes`);
    const hashes = rows.map((r: { h: string | null }) => r.h).filter((h: string | null): h is string => h !== null);
    const originals = PHOTOS.map((name) => createHash('sha256').update(photo(name).bytes).digest('hex'));
    expect(hashes).toEqual(expect.arrayContaining(originals));
    expect(hashes.length).toBeGreaterThanOrEqual(originals.length * 2 + 2);
    expect((await objectKeys()).sort()).toEqual(hashes.map((h: string) => `blobs/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`).sort());
    const local = path.join(server.dataDir, 'blobs');
    const files = fs.existsSync(local) ? fs.readdirSync(local, { recursive: true }).filter((f) => fs.statSync(path.join(local, String(f))).isFile()) : [];
    expect(files).toEqual([]);
    expect(fs.readdirSync(path.join(server.dataDir, 'blob-spool'))).toEqual([]);
  });

  it('answers a media download with a redirect to a presigned URL that serves the bytes, type and name', async () => {
    const media = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media as Array<{ media_id: string; file_name: string }>;
    const dog = media.find((m) => m.file_name === 'dog.jpg')!;
    const res = await fetch(`${server.url}/api/v1/dataset/${datasetId}/media/${dog.media_id}/original`, { headers: { authorization: `Bearer ${owner.token}` }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(s3.endpoint)).toBe(true);
    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toBe('image/jpeg');
    expect(followed.headers.get('content-disposition')).toBe(`inline; filename="dog.jpg"; filename*=UTF-8''dog.jpg`);
    expect(Buffer.from(await followed.arrayBuffer()).equals(photo('dog.jpg').bytes)).toBe(true);
    // No access, no redirect.
    const stranger = await server.createUser();
    const refused = await fetch(`${server.url}/api/v1/dataset/${datasetId}/media/${dog.media_id}/original`, { headers: { authorization: `Bearer ${stranger.token}` }, redirect: 'manual' });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('builds an export into the bucket and downloads it through the redirect', async () => {
    const entries = await exportArchive(server, owner, datasetId, 'file_name=s3&export_format=json&include_images=true');
    expect([...entries.keys()].filter((k) => k.startsWith('images/')).sort()).toEqual(PHOTOS.map((p) => `images/${p}`));
    expect(entries.get('images/horses.jpg')!.bytes.equals(photo('horses.jpg').bytes)).toBe(true);
    const { rows } = await server.loupe.container.database.pool.query(`select id, blob_hash from exports where status = 'COMPLETED'`);
    expect(rows).toHaveLength(1);
    expect(await objectKeys()).toContain(`blobs/${rows[0].blob_hash.slice(0, 2)}/${rows[0].blob_hash.slice(2, 4)}/${rows[0].blob_hash}`);
    const status = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/export_status?export_task_id=${rows[0].id}`);
    const res = await fetch(status.body.download_uri, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const followed = await fetch(res.headers.get('location')!);
    expect(followed.headers.get('content-type')).toBe('application/zip');
    expect(followed.headers.get('content-disposition')).toMatch(/^attachment; filename="s3[^"]*\.zip"/);
  });
});

describe('nodes on one database agree on blobs and keys', () => {
  const startNode = (env: Record<string, string>) =>
    startLoupe(loadConfig({ DATA_DIR: tempDataDir(), PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrlOf(server), ...env }, { role: 'api' }));

  it('refuses a node that keeps blobs elsewhere, lacks the shared key or holds another', async () => {
    await expect(startNode({})).rejects.toThrow(/^BLOB_URL: node .* keeps blobs in s3:\/\/loupe\/blobs\/ at http:\/\/127\.0\.0\.1:\d+, this node in file:\/\//);
    const { LOUPE_SECRET_KEY: _, ...withoutKey } = blobEnv();
    await expect(startNode(withoutKey)).rejects.toThrow(/^LOUPE_SECRET_KEY is not set while node .* uses this database/);
    await expect(startNode({ ...blobEnv(), LOUPE_SECRET_KEY: OTHER_KEY })).rejects.toThrow(/^LOUPE_SECRET_KEY: node .* holds another secret key/);
    const { rows } = await server.loupe.container.database.pool.query('select count(*)::int as n from nodes');
    expect(rows[0].n).toBe(1);
  }, 60_000);

  it('serves the same datasets and links from a node that agrees, passing bytes through with BLOB_PROXY', async () => {
    const node = await startNode({ ...blobEnv(), BLOB_PROXY: 'true' });
    try {
      const list = await fetch(`${node.url}/api/v1/datasets`, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as Array<{ id: string }>).map((d) => d.id)).toContain(datasetId);
      // A link signed by the first node verifies on this one, and the bytes come through it (no redirect).
      const media = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media as Array<{ file_name: string; media_uri: string }>;
      const horses = media.find((m) => m.file_name === 'horses.jpg')!;
      const signed = new URL(horses.media_uri, server.url);
      const res = await fetch(`${node.url}${signed.pathname}${signed.search}`, { redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await res.arrayBuffer()).equals(photo('horses.jpg').bytes)).toBe(true);
      // A session made on one node, and an upload transaction opened there, carry on the other.
      const signIn = await fetch(`${server.url}/api/v1/auth/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: owner.api_key, api_secret: owner.api_secret }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const me = await fetch(`${node.url}/api/v1/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ user_id: owner.user_id, email: owner.email });
      const fresh = await server.api(owner.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=across%20nodes');
      const transId = (await server.api(owner.token, 'GET', `/api/v1/ingestion/${fresh.body.dataset_id}/data_files`)).body.trans_id;
      const body = new FormData();
      body.append('files', new Blob([new Uint8Array(photo('dog.jpg').bytes)]), 'dog.jpg');
      const uploaded = await fetch(`${node.url}/api/v1/ingestion/${fresh.body.dataset_id}/data_files/${transId}`, { method: 'POST', headers: { cookie }, body });
      expect(uploaded.status, await uploaded.clone().text()).toBe(202);
      expect((await server.api(owner.token, 'POST', `/api/v1/ingestion/${fresh.body.dataset_id}/process_files/${transId}`)).status).toBe(202);
      const ready = await waitForDataset(server, owner, fresh.body.dataset_id, ['READY', 'ERROR']);
      expect([ready.status_new, ready.n_images]).toEqual(['READY', 1]);
      const { rows } = await server.loupe.container.database.pool.query(`select role from nodes order by role`);
      expect(rows.map((r: { role: string }) => r.role)).toEqual(['all', 'api']);
    } finally {
      await node.close();
    }
    const { rows } = await server.loupe.container.database.pool.query('select role from nodes');
    expect(rows.map((r: { role: string }) => r.role)).toEqual(['all']);
  }, 60_000);
});
