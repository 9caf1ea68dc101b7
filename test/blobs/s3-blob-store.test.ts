import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore, parseBlobUrl } from '../../src/adapters/blobs/s3-blob-store.js';
import { s3Client } from '../../src/adapters/s3-client.js';
import { type S3rverHandle, startS3rver } from '../sources/s3rver-server.js';
import { blobStoreContract } from './blob-store.contract.js';

let s3: S3rverHandle;
let admin: S3Client;
let buckets = 0;

beforeAll(async () => {
  s3 = await startS3rver();
  admin = s3.admin();
});
afterAll(async () => {
  admin?.destroy();
  await s3?.close();
});

/** A fresh bucket and spool folder per store, so no test sees another's blobs. */
async function freshStore(prefix = 'blobs/') {
  const bucket = `blobs-${++buckets}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const spool = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-spool-'));
  const client = s3Client(s3.env);
  const store = new S3BlobStore(client, { bucket, prefix }, spool);
  const keys = async () => ((await admin.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).sort();
  return {
    bucket,
    spool,
    store,
    keys,
    cleanup: async () => {
      client.destroy();
      await fs.rm(spool, { recursive: true, force: true });
    },
    tempFiles: async () => fs.readdir(spool).catch(() => [] as string[]),
  };
}

blobStoreContract('S3BlobStore (s3rver)', freshStore);

describe('S3BlobStore in a bucket', () => {
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  it('lays blobs out as prefix/ab/cd/<hash> and spools nothing once stored', async () => {
    const s = await freshStore('team/loupe/');
    try {
      const data = randomBytes(5000);
      const hash = sha256(data);
      await s.store.putBuffer(data);
      await s.store.put(Readable.from([data]));
      expect(await s.keys()).toEqual([`team/loupe/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`]);
      expect(await s.tempFiles()).toEqual([]);
      const local = await s.store.localFile(hash);
      expect((await fs.readFile(local.path)).equals(data)).toBe(true);
      await local.release();
      expect(await s.tempFiles()).toEqual([]);
    } finally {
      await s.cleanup();
    }
  });

  it('uploads a blob of several parts whole, and replaces a damaged copy under its key', async () => {
    const s = await freshStore();
    try {
      const chunk = randomBytes(1 << 20);
      const chunks = (n: number) => Readable.from((function* () { for (let i = 0; i < n; i++) yield chunk; })());
      const stored = await s.store.put(chunks(20));
      const expected = createHash('sha256');
      for (let i = 0; i < 20; i++) expected.update(chunk);
      expect(stored).toEqual({ hash: expected.digest('hex'), size: 20 << 20 });
      const back = createHash('sha256');
      for await (const piece of await s.store.open(stored.hash)) back.update(piece as Buffer);
      expect(back.digest('hex')).toBe(stored.hash);

      const data = randomBytes(3000);
      const hash = sha256(data);
      await admin.send(new PutObjectCommand({ Bucket: s.bucket, Key: s.store.keyOf(hash), Body: data.subarray(0, 100) }));
      await s.store.putBuffer(data);
      const object = await admin.send(new GetObjectCommand({ Bucket: s.bucket, Key: s.store.keyOf(hash) }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(data)).toBe(true);
    } finally {
      await s.cleanup();
    }
  });

  it('gives a presigned link answering with the asked content type and file name', async () => {
    const s = await freshStore();
    try {
      const data = randomBytes(2000);
      const { hash } = await s.store.putBuffer(data);
      const link = await s.store.downloadLink(hash, { contentType: 'application/zip', disposition: 'attachment; filename="x.zip"', expiresInSeconds: 60 });
      const res = await fetch(link);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="x.zip"');
      expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
      const ranged = await fetch(link, { headers: { range: 'bytes=10-19' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(10, 20))).toBe(true);
      // Signed for the asked lifetime (S3 checks it; s3rver does not verify version 4 signatures).
      const query = new URL(link).searchParams;
      expect([query.get('X-Amz-Expires'), query.get('X-Amz-Algorithm'), query.get('X-Amz-Signature')?.length]).toEqual(['60', 'AWS4-HMAC-SHA256', 64]);
    } finally {
      await s.cleanup();
    }
  });

  it('cleanTemp removes spooled files older than an hour and keeps fresh ones', async () => {
    const s = await freshStore();
    try {
      expect(await s.store.cleanTemp()).toBe(0);
      await fs.writeFile(path.join(s.spool, 'old.part'), 'crashed upload');
      await fs.writeFile(path.join(s.spool, 'fresh.part'), 'upload in progress');
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await fs.utimes(path.join(s.spool, 'old.part'), twoHoursAgo, twoHoursAgo);
      expect(await s.store.cleanTemp()).toBe(1);
      expect(await fs.readdir(s.spool)).toEqual(['fresh.part']);
    } finally {
      await s.cleanup();
    }
  });

  it('check() names the bucket it cannot reach', async () => {
    const client = s3Client(s3.env);
    try {
      const store = new S3BlobStore(client, { bucket: 'no-such-bucket', prefix: '' }, os.tmpdir());
      await expect(store.check()).rejects.toThrow(/BLOB_URL: cannot list s3:\/\/no-such-bucket\/: NoSuchBucket/);
    } finally {
      client.destroy();
    }
  });
});

describe('BLOB_URL', () => {
  it('names a bucket and a folder in it', () => {
    expect(parseBlobUrl('s3://media-bucket')).toEqual({ bucket: 'media-bucket', prefix: '' });
    expect(parseBlobUrl('s3://media-bucket/')).toEqual({ bucket: 'media-bucket', prefix: '' });
    expect(parseBlobUrl('s3://media.bucket/loupe')).toEqual({ bucket: 'media.bucket', prefix: 'loupe/' });
    expect(parseBlobUrl('s3://b01/a//b/')).toEqual({ bucket: 'b01', prefix: 'a/b/' });
    for (const bad of ['http://bucket/x', 's3://', 's3://Bucket', 's3://b', 's3://bucket/a b', 's3://bucket/a?x', 'bucket/prefix']) expect(parseBlobUrl(bad), bad).toBeNull();
  });
});
