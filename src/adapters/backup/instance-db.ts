import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../db/database.js';
import { hasEmbeddedCluster, startEmbeddedPostgres } from '../db/embedded-postgres.js';

/** An instance's database as backup and restore use it: never migrated on opening, few connections. */
export interface InstanceDatabase {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

/**
 * The database of DATA_DIR (the running server's, adopted, or started for the command) or DATABASE_URL. `create`:
 * a DATA_DIR without one gets a new, empty cluster (a restore); else that is refused, naming DATA_DIR.
 */
export async function openInstanceDatabase(config: Config, log: Logger, create: boolean): Promise<InstanceDatabase> {
  if (!config.databaseUrl && !create && !hasEmbeddedCluster(config.dataDir)) {
    throw new Error(`No Loupe database in DATA_DIR=${path.resolve(config.dataDir)}. Set DATA_DIR (or DATABASE_URL) to the server's.`);
  }
  if (create && !config.databaseUrl) fs.mkdirSync(config.dataDir, { recursive: true });
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir, 'cli', log, config.dbSharedBuffersMb);
  const pool = new pg.Pool({ ...(embedded ? embedded.poolConfig : { connectionString: config.databaseUrl! }), max: 2 });
  pool.on('error', (err) => log.debug({ err }, 'idle database connection failed'));
  pool.on('connect', (client) => client.on('error', (err) => log.debug({ err }, 'database connection failed')));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) }) as Db;
  return {
    pool,
    db,
    close: async () => {
      await db.destroy();
      // Kysely ends the pool only where it used it; a pool left open keeps the process alive for its idle timeout.
      if (!pool.ending && !pool.ended) await pool.end();
      await embedded?.stop();
    },
  };
}
