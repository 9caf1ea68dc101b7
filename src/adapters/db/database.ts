import { AsyncLocalStorage } from 'node:async_hooks';
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
  /** Both pools behind one face: each call goes to the pool of the caller's lane (see inReadLane). */
  pool: pg.Pool;
  /** GET requests' connections, and everyone else's (writes, uploads, jobs, sweeps), apart. */
  pools: Record<Lane, pg.Pool>;
  /** How to open a dedicated connection (LISTEN needs one of its own). */
  connection: pg.ClientConfig;
  close(): Promise<void>;
}

export type Lane = 'reads' | 'writes';

const lanes = new AsyncLocalStorage<Lane>();

/**
 * Runs `next` (the rest of a GET request) in the reads lane: its queries use a pool of their own, so a read never
 * waits for a connection behind uploads and jobs, however many of those hold one. Everything else uses the writes pool.
 */
export function inReadLane(next: () => void): void {
  lanes.run('reads', next);
}

/** The lane the caller runs in: its queries go to that lane's pool. */
export function currentLane(): Lane {
  return lanes.getStore() ?? 'writes';
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
  options: {
    databaseUrl: string | null;
    dataDir: string;
    owner: EmbeddedOwner;
    /** Most connections of the writes lane (default 20) and of the reads lane (default 10). */
    poolSize?: number;
    readPoolSize?: number;
    sharedBuffersMb?: number;
  },
  log: Logger,
): Promise<DatabaseHandle> {
  const embedded = options.databaseUrl ? null : await startEmbeddedPostgres(options.dataDir, options.owner, log, options.sharedBuffersMb);
  const connection: pg.ClientConfig = embedded ? embedded.poolConfig : { connectionString: options.databaseUrl! };
  const pools: Record<Lane, pg.Pool> = {
    reads: new pg.Pool({ ...connection, max: options.readPoolSize ?? 10 }),
    writes: new pg.Pool({ ...connection, max: options.poolSize ?? 20 }),
  };
  let closing = false;
  // Once close() began, the database stopping ends connections the pool is still closing: expected, not an error.
  const failed = (message: string) => (err: Error) => (closing ? log.debug({ err }, message) : log.error({ err }, message));
  const clients = new Set<pg.Client>();
  for (const lanePool of Object.values(pools)) {
    lanePool.on('error', failed('idle database connection failed'));
    lanePool.on('connect', (client) => {
      clients.add(client);
      client.once('end', () => clients.delete(client));
      client.on('error', failed('database connection failed'));
    });
  }
  const pick = () => pools[currentLane()];
  const end = async () => {
    await Promise.all(Object.values(pools).map((p) => p.end()));
  };
  const pool = new Proxy(pools.writes, {
    get(_, key) {
      if (key === 'end') return end;
      const target = pick();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: { connect: () => pick().connect(), end } }) });
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
    pools,
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
