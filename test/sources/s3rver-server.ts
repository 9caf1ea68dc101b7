import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

type CreateCipher = (algorithm: string, key: Buffer, iv: Buffer | null, options?: object) => unknown;
type CipherFactories = { createCipheriv: CreateCipher; createDecipheriv: CreateCipher };

/**
 * s3rver encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node ≥ 17) no longer
 * offers, so any listing past 1,000 keys answers 500. Triple DES with the key repeated three times is the
 * same cipher; this routes s3rver's 'des' calls there, in this test process only.
 */
function letS3rverPaginate(): void {
  const crypto = createRequire(import.meta.url)('node:crypto') as CipherFactories;
  try {
    crypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
    return; // this OpenSSL still has DES (or the shim is already in place)
  } catch {
    // fall through
  }
  for (const name of ['createCipheriv', 'createDecipheriv'] as const) {
    const create = crypto[name];
    crypto[name] = (algorithm, key, iv, options) =>
      algorithm.toLowerCase() === 'des'
        ? create('des-ede3-cbc', Buffer.concat([key, key, key]), iv, options)
        : create(algorithm, key, iv, options);
  }
}

export interface S3rverHandle {
  endpoint: string;
  /** What the SDK needs to reach this server, for an options `env` (never process.env). */
  env: NodeJS.ProcessEnv;
  /** A client for setting up buckets and objects. */
  admin(): S3Client;
  close(): Promise<void>;
}

/** An S3-compatible server on a free local port, storing into a fresh temp folder. */
export async function startS3rver(): Promise<S3rverHandle> {
  letS3rverPaginate();
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'loupe-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: { AWS_ENDPOINT_URL_S3: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' },
    admin: () =>
      new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
    close: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
