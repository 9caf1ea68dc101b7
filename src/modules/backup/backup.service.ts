import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { BLOB_REFERENCES_COPY, copyBlobsOut } from '../../adapters/backup/blob-copy.js';
import { openInstanceDatabase } from '../../adapters/backup/instance-db.js';
import { BACKUP_FORMAT, BLOBS_DIR, BLOB_LIST_FILE, type Manifest, SECRET_KEY_FILE, TABLES_DIR, type TableDump, writeManifest } from '../../adapters/backup/manifest.js';
import { dumpQuery, dumpTable, listTables, lockTables, sequenceValues } from '../../adapters/backup/pg-tables.js';
import { openBlobStore } from '../../adapters/blobs/open-blob-store.js';
import { QUEUE_BACKUP_COLUMNS, QUEUE_BACKUP_QUERY } from '../../adapters/queue/graphile-queue.js';
import type { Config } from '../../config.js';
import { type BackupProgress, TargetNotEmptyError, claimEmptyDir, emptyDir, loupeVersion } from './backup-target.js';

export interface BackupOptions {
  config: Config;
  dir: string;
  log: Logger;
  progress?: (p: BackupProgress) => void;
  signal?: AbortSignal;
}

/**
 * Backs a whole instance up into `dir` while it runs: every table of one snapshot (a read-only REPEATABLE READ
 * transaction, so rows written meanwhile are not in it and every reference holds), the waiting jobs, then every
 * blob those rows reference, each checked against its hash, then the manifest. On failure `dir` is emptied again.
 */
export async function backupInstance({ config, dir, log, progress = () => {}, signal }: BackupOptions): Promise<Manifest> {
  const root = path.resolve(dir);
  if (!(await claimEmptyDir(root))) throw new TargetNotEmptyError(`Backup folder ${root} is not empty: back up into a new or empty folder`);
  try {
    const database = await dumpDatabase(config, root, log, progress, signal);
    const store = await openBlobStore(config);
    let total = database.blobCount;
    const blobs = await copyBlobsOut(store, path.join(root, BLOB_LIST_FILE), path.join(root, BLOBS_DIR), (done) => {
      progress({ phase: 'blobs', done: done.count, total, detail: `${(done.bytes / 1e6).toFixed(1)} MB` });
    }, signal);
    total = blobs.count;
    const secretKey = await copySecretKey(config, root);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      loupe_version: await loupeVersion(),
      created_at: database.createdAt,
      postgres_version: database.postgresVersion,
      migrations: database.migrations,
      tables: database.tables,
      sequences: database.sequences,
      queue: database.queue,
      blobs: { ...database.blobList, count: blobs.count, total_bytes: blobs.bytes },
      secret_key: secretKey,
    };
    await writeManifest(root, manifest);
    return manifest;
  } catch (err) {
    await emptyDir(root);
    throw err;
  }
}

async function dumpDatabase(config: Config, root: string, log: Logger, progress: (p: BackupProgress) => void, signal?: AbortSignal) {
  const database = await openInstanceDatabase(config, log, false);
  try {
    const client = await database.pool.connect();
    try {
      // One snapshot for every table, the job queue and the blob list: what the backup holds existed together.
      await client.query('begin isolation level repeatable read read only');
      const { rows: [now] } = await client.query<{ created_at: Date; version: string }>(`select now() as created_at, current_setting('server_version') as version`);
      const migrations = (await client.query<{ name: string }>('select name from loupe_migrations order by name')).rows.map((r) => r.name);
      const tables = await listTables(client);
      await lockTables(client, tables);
      const sequences = await sequenceValues(client);
      const dumps: TableDump[] = [];
      for (const [i, table] of tables.entries()) {
        signal?.throwIfAborted();
        const file = path.join(TABLES_DIR, `${table.table}.copy`);
        const dumped = await dumpTable(client, table, path.join(root, file));
        dumps.push({ ...table, file, ...dumped });
        progress({ phase: 'database', done: i + 1, total: tables.length, detail: table.table });
      }
      const queueFile = path.join(TABLES_DIR, 'graphile_worker.jobs.copy');
      const queue = { file: queueFile, ...(await dumpQuery(client, `copy (${QUEUE_BACKUP_QUERY}) to stdout`, path.join(root, queueFile))) };
      const blobList = await dumpQuery(client, BLOB_REFERENCES_COPY, path.join(root, BLOB_LIST_FILE));
      await client.query('commit');
      log.debug({ tables: dumps.length, jobs: queue.rows, columns: QUEUE_BACKUP_COLUMNS }, 'database dumped');
      return {
        createdAt: now!.created_at.toISOString(),
        postgresVersion: now!.version,
        migrations,
        tables: dumps,
        sequences,
        queue,
        blobCount: blobList.rows,
        blobList: { file: BLOB_LIST_FILE, bytes: blobList.bytes, sha256: blobList.sha256 },
      };
    } finally {
      client.release();
    }
  } finally {
    await database.close();
  }
}

/** The key API secrets are encrypted under: without it the restored server could verify no API key. */
async function copySecretKey(config: Config, root: string): Promise<Manifest['secret_key']> {
  if (config.secretKey) return 'environment';
  try {
    await fs.copyFile(path.join(config.dataDir, SECRET_KEY_FILE), path.join(root, SECRET_KEY_FILE));
    await fs.chmod(path.join(root, SECRET_KEY_FILE), 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new Error(`DATA_DIR ${config.dataDir} has no ${SECRET_KEY_FILE} and LOUPE_SECRET_KEY is not set: the API secrets could not be read after a restore`);
  }
  return 'file';
}
