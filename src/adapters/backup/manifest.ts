import fs from 'node:fs/promises';
import path from 'node:path';

/** What `loupe backup` writes into its folder, described by manifest.json (written last: a folder without one is no backup). */
export const BACKUP_FORMAT = 'loupe-backup/1';
export const MANIFEST_FILE = 'manifest.json';
export const BLOB_LIST_FILE = 'blobs.txt';
export const BLOBS_DIR = 'blobs';
export const TABLES_DIR = 'db';
export const SECRET_KEY_FILE = 'secret.key';

/** A file of the backup with what its bytes must hash to. */
export interface BackupFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface TableDump extends BackupFile {
  /** Schema-qualified name, e.g. `public.datasets`. */
  table: string;
  /** The columns in the file's order (generated columns are left out: the database computes them again). */
  columns: string[];
  rows: number;
  /** For a partition the application made (a version's field set): its parent and bound, to make it again. */
  partition?: { parent: string; bound: string };
}

export interface SequenceValue {
  sequence: string;
  value: string;
  is_called: boolean;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  loupe_version: string;
  created_at: string;
  postgres_version: string;
  /** The database's migrations, oldest first; the last is the schema the tables were dumped at. */
  migrations: string[];
  tables: TableDump[];
  sequences: SequenceValue[];
  /** The job queue's waiting jobs (see QUEUE_BACKUP_QUERY). */
  queue: BackupFile & { rows: number };
  /** Every blob the dumped rows reference, one sha256 a line in BLOB_LIST_FILE, each stored under blobs/ab/cd/<sha256>. */
  blobs: BackupFile & { count: number; total_bytes: number };
  /** `file`: the server key is in SECRET_KEY_FILE; `environment`: it came from LOUPE_SECRET_KEY, which the restored server needs again. */
  secret_key: 'file' | 'environment';
}

/** A backup that cannot be read or does not check out: nothing is restored from it. */
export class BackupInvalidError extends Error {
  override name = 'BackupInvalidError';
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupInvalidError(`${path.resolve(dir)} is not a Loupe backup: it has no ${MANIFEST_FILE} (an interrupted backup writes none)`);
    }
    throw err;
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupInvalidError(`${path.join(path.resolve(dir), MANIFEST_FILE)} is not valid JSON`);
  }
  if (manifest?.format !== BACKUP_FORMAT) {
    throw new BackupInvalidError(`${path.resolve(dir)} holds a backup of format ${JSON.stringify(manifest?.format)}; this Loupe reads ${BACKUP_FORMAT}`);
  }
  checkNames(manifest);
  return manifest;
}

/** Written under a temporary name and renamed, so manifest.json exists only once the whole backup does. */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const temp = path.join(dir, `${MANIFEST_FILE}.part`);
  await fs.writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  const handle = await fs.open(temp, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, path.join(dir, MANIFEST_FILE));
}

const TABLE_NAME = /^public\.[a-z_][a-z0-9_]*$/;
const PARTITION_BOUND = /^FOR VALUES IN \('[0-9a-f-]{36}'\)$/;

/**
 * The manifest's names go into SQL and paths, and it is a file anyone could edit: only plain table names, the
 * partition bounds Loupe makes (one version id) and files inside the backup pass.
 */
function checkNames(manifest: Manifest): void {
  const refuse = (what: string) => {
    throw new BackupInvalidError(`${MANIFEST_FILE} is not one Loupe writes: ${what}`);
  };
  for (const entry of [...manifest.tables, manifest.queue, manifest.blobs]) {
    if (path.isAbsolute(entry.file) || entry.file.split(/[\\/]/).includes('..')) refuse(`a file outside the backup, ${entry.file}`);
  }
  for (const table of manifest.tables) {
    if (!TABLE_NAME.test(table.table)) refuse(`table ${table.table}`);
    if (table.partition && (!TABLE_NAME.test(table.partition.parent) || !PARTITION_BOUND.test(table.partition.bound))) refuse(`partition ${table.table}`);
  }
  for (const sequence of manifest.sequences) if (!TABLE_NAME.test(sequence.sequence)) refuse(`sequence ${sequence.sequence}`);
}
