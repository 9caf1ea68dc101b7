import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { type EmbeddedOwner, startEmbeddedPostgres } from './embedded-postgres.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  /** How to open a dedicated connection (LISTEN needs one of its own). */
  connection: pg.ClientConfig;
  close(): Promise<void>;
}

// Return int8 (counts) as numbers: every count we read fits comfortably in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * Lets the rest of the transaction hash, group and sort up to a million rows in memory instead of spilling
 * to temporary files (the default 4MB splits a 1M-row hash join into 8 batches on disk).
 */
export async function setWorkMem(trx: Db, size: '64MB' | '256MB'): Promise<void> {
  await sql`set local work_mem = ${sql.raw(`'${size}'`)}`.execute(trx);
}

/**
 * Tells the planner, for the rest of the transaction, that random page reads cost little more than sequential
 * ones (pages cached or on SSD). At the default 4 it hashes a whole 1M-row version to update 100k of its
 * media (1.5 s) instead of merging along the version's index (0.8 s).
 */
export async function assumeCachedPages(trx: Db): Promise<void> {
  await sql`set local random_page_cost = 1.1`.execute(trx);
}

/**
 * Runs `work` with the planner told that parallel workers cost nearly nothing to start and to pass rows up.
 * Priced at the defaults, passing a million rows up from workers looked dearer than one process doing all
 * the work: in parallel the match of 1M imported rows took 2.9–3.1 s instead of 4.2–4.9 s, and a set of 1M
 * rows was made in 1.2–1.5 s instead of 2.0–2.1 s. Statements on temporary tables never run in parallel.
 */
export async function inParallel<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  await sql`set local parallel_setup_cost = 0; set local parallel_tuple_cost = 0.001`.execute(trx);
  const result = await work();
  await sql`set local parallel_setup_cost to default; set local parallel_tuple_cost to default`.execute(trx);
  return result;
}

export async function openDatabase(
  options: { databaseUrl: string | null; dataDir: string; owner: EmbeddedOwner; poolSize?: number; sharedBuffersMb?: number },
  log: Logger,
): Promise<DatabaseHandle> {
  const embedded = options.databaseUrl ? null : await startEmbeddedPostgres(options.dataDir, options.owner, log, options.sharedBuffersMb);
  const connection: pg.ClientConfig = embedded ? embedded.poolConfig : { connectionString: options.databaseUrl! };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 20 });
  let closing = false;
  // Once close() began, the database stopping ends connections the pool is still closing: expected, not an error.
  const failed = (message: string) => (err: Error) => (closing ? log.debug({ err }, message) : log.error({ err }, message));
  pool.on('error', failed('idle database connection failed'));
  const clients = new Set<pg.Client>();
  pool.on('connect', (client) => {
    clients.add(client);
    client.once('end', () => clients.delete(client));
    client.on('error', failed('database connection failed'));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log.info({ applied }, 'database migrations applied');
  } catch (err) {
    await db.destroy();
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    pool,
    connection,
    close: async () => {
      closing = true;
      await db.destroy();
      // The pool's end does not wait for its connections to close: stopping the server under one fails it loudly.
      await Promise.race([Promise.all([...clients].map((c) => new Promise((resolve) => c.once('end', resolve)))), sleep(2_000, undefined, { ref: false })]);
      await embedded?.stop();
    },
  };
}
