import path from 'node:path';
import type { Config } from '../../config.js';
import { s3Client } from '../s3-client.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/**
 * The blob store config names: an S3 bucket (BLOB_URL; its spool folder under DATA_DIR), checked to be reachable,
 * or DATA_DIR/blobs.
 */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (!config.blobs.s3) return new FsBlobStore(path.join(config.dataDir, 'blobs'));
  const store = new S3BlobStore(s3Client(config.objectStorageEnv), config.blobs.s3, path.join(config.dataDir, 'blob-spool'));
  await store.check();
  return store;
}
