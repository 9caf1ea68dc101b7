import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../../src/adapters/db/database.js';
import { installQueueSchema } from '../../src/adapters/queue/graphile-queue.js';

const TEMPLATE_ENV = 'LOUPE_TEST_CLUSTER';

/**
 * Vitest's global setup: makes one migrated PostgreSQL cluster before any test file runs, so each test server
 * starts from a copy of it instead of running initdb and every migration again (most of a server's start).
 */
export default async function prepareCluster(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cluster-'));
  const database = await openDatabase({ databaseUrl: null, dataDir: dir, owner: 'server' }, pino({ level: 'silent' }));
  try {
    await installQueueSchema(database.pool);
    // A throwaway cluster: no test outlives an operating-system crash, and a process killed mid-test loses nothing
    // without fsync either (its writes are in the page cache), so commits and checkpoints need not wait for the disk.
    await database.pool.query('alter system set fsync = off');
  } finally {
    await database.close();
  }
  process.env[TEMPLATE_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** Gives a fresh `dataDir` a copy of the prepared cluster; `cp -a` keeps the owner PostgreSQL runs as under root. */
export function seedCluster(dataDir: string): void {
  const template = process.env[TEMPLATE_ENV];
  if (!template || fs.existsSync(path.join(dataDir, 'pg'))) return;
  execFileSync('cp', ['-a', path.join(template, 'pg'), path.join(template, 'pg-password'), dataDir]);
}
