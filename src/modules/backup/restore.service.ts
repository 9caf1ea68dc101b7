import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { putBlobsBack } from '../../adapters/backup/blob-copy.js';
import { hashFile } from '../../adapters/backup/hashed-files.js';
import { type InstanceDatabase, openInstanceDatabase } from '../../adapters/backup/instance-db.js';
import { BLOBS_DIR, BackupInvalidError, type Manifest, SECRET_KEY_FILE, readManifest } from '../../adapters/backup/manifest.js';
import { createPartition, firstForeignKeyViolation, loadTable, setSequences } from '../../adapters/backup/pg-tables.js';
import { openBlobStore } from '../../adapters/blobs/open-blob-store.js';
import { MIGRATION_NAMES, migrateUpTo } from '../../adapters/db/migrate.js';
import { QUEUE_BACKUP_COLUMNS, QUEUE_BACKUP_TABLE_DDL, installQueueSchema, requeueBackedUpJobs } from '../../adapters/queue/graphile-queue.js';
import type { Config } from '../../config.js';
import { type BackupProgress, TargetNotEmptyError, claimEmptyDir, emptyDir } from './backup-target.js';

export interface RestoreOptions {
  config: Config;
  dir: string;
  log: Logger;
  progress?: (p: BackupProgress) => void;
  signal?: AbortSignal;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Jobs queued again: tasks that were running resume as after a restart (or fail, with no attempt left). */
  jobs: number;
}

/**
 * Restores a backup into an empty DATA_DIR (or an empty DATABASE_URL database and any BLOB_URL): the blobs first,
 * each checked by the store's own hash, then the schema migrated up to the backup's and every table loaded in one
 * transaction, each file checked against the manifest, every foreign key checked at the end. On failure the
 * DATA_DIR is emptied again, so the restore can simply run again (a DATABASE_URL database keeps the migrated, empty
 * tables: the message says to drop them).
 */
export async function restoreInstance({ config, dir, log, progress = () => {}, signal }: RestoreOptions): Promise<RestoreResult> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root);
  const unknown = manifest.migrations.filter((m) => !MIGRATION_NAMES.includes(m));
  if (unknown.length > 0 || manifest.migrations.length === 0) {
    throw new BackupInvalidError(
      `This backup was made by Loupe ${manifest.loupe_version} at schema ${manifest.migrations.at(-1)}, which this Loupe does not know ` +
        `(it goes up to ${MIGRATION_NAMES.at(-1)}): restore it with Loupe ${manifest.loupe_version} or newer`,
    );
  }
  const dataDir = path.resolve(config.dataDir);
  if (!(await claimEmptyDir(dataDir))) throw new TargetNotEmptyError(`DATA_DIR ${dataDir} is not empty: restore only into an empty DATA_DIR (or a new path)`);
  let database: InstanceDatabase | null = null;
  let tablesMade = false;
  try {
    // An external database must be empty before anything is written; an embedded one is, in an empty DATA_DIR, and
    // starts only once the blobs checked out (a damaged backup is refused before a cluster is made).
    if (config.databaseUrl) {
      database = await openInstanceDatabase(config, log, true);
      await refuseUsedDatabase(database);
    }
    const list = path.join(root, manifest.blobs.file);
    const listed = await hashFile(list);
    if (listed.sha256 !== manifest.blobs.sha256) throw new BackupInvalidError(`${list} is damaged: its bytes hash to ${listed.sha256}, the backup recorded ${manifest.blobs.sha256}`);
    const store = await openBlobStore(config);
    await putBlobsBack(store, list, path.join(root, BLOBS_DIR), (done) => {
      progress({ phase: 'blobs', done: done.count, total: manifest.blobs.count, detail: `${(done.bytes / 1e6).toFixed(1)} MB` });
    }, signal);
    database ??= await openInstanceDatabase(config, log, true);
    tablesMade = true;
    await migrateUpTo(database.db, manifest.migrations.at(-1)!);
    await installQueueSchema(database.pool);
    const jobs = await loadTables(database, root, manifest, progress, signal);
    await restoreSecretKey(manifest, root, dataDir);
    return { manifest, jobs };
  } catch (err) {
    await database?.close().catch(() => {});
    database = null;
    if (!config.databaseUrl) await emptyDir(dataDir);
    else if (tablesMade && err instanceof Error) {
      err.message += '\nThe database of DATABASE_URL keeps the empty tables the restore made: drop them (schemas public, graphile_worker, import_staging) before restoring again';
    }
    throw err;
  } finally {
    await database?.close();
  }
}

async function refuseUsedDatabase(database: InstanceDatabase): Promise<void> {
  const { rows } = await database.pool.query<{ used: boolean }>(`select to_regclass('public.loupe_migrations') is not null as used`);
  if (rows[0]?.used) throw new TargetNotEmptyError('The database of DATABASE_URL already holds a Loupe instance: restore only into an empty database');
}

async function loadTables(database: InstanceDatabase, root: string, manifest: Manifest, progress: (p: BackupProgress) => void, signal?: AbortSignal): Promise<number> {
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    // Triggers off while loading: foreign keys (datasets and versions reference each other) are checked once at the
    // end, and the counters triggers keep (task_counts) are loaded as they were, not counted again.
    await client.query('set local session_replication_role = replica').catch((err: Error) => {
      throw new Error(`Restoring needs a database role allowed to set session_replication_role (a superuser, or GRANT SET ON PARAMETER): ${err.message}`);
    });
    for (const [i, table] of manifest.tables.entries()) {
      signal?.throwIfAborted();
      if (table.partition) await createPartition(client, table.table, table.partition);
      await loadTable(client, table, path.join(root, table.file));
      progress({ phase: 'database', done: i + 1, total: manifest.tables.length, detail: table.table });
    }
    await setSequences(client, manifest.sequences);
    await client.query(`create temp table restored_jobs ${QUEUE_BACKUP_TABLE_DDL} on commit drop`);
    await loadTable(client, { ...manifest.queue, table: 'restored_jobs', columns: [...QUEUE_BACKUP_COLUMNS] }, path.join(root, manifest.queue.file));
    await client.query('set local session_replication_role = origin');
    const jobs = await requeueBackedUpJobs(client, 'restored_jobs');
    const violation = await firstForeignKeyViolation(client);
    if (violation) throw new BackupInvalidError(`The backup's rows do not hold together (a reference ${violation} points at no row); nothing was restored`);
    await client.query('commit');
    return jobs;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The server key the API secrets are encrypted under, where the backup holds it (else LOUPE_SECRET_KEY must be set as before). */
async function restoreSecretKey(manifest: Manifest, root: string, dataDir: string): Promise<void> {
  if (manifest.secret_key !== 'file') return;
  await fs.copyFile(path.join(root, SECRET_KEY_FILE), path.join(dataDir, SECRET_KEY_FILE), fs.constants.COPYFILE_EXCL);
  await fs.chmod(path.join(dataDir, SECRET_KEY_FILE), 0o600);
}
