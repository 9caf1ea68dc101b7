import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './adapters/db/database.js';
import type { EmbeddedOwner } from './adapters/db/embedded-postgres.js';
import { CHANNELS, PgEvents } from './adapters/events/pg-events.js';
import { KeyBox, loadServerKey } from './adapters/secrets/key-box.js';
import { installQueueSchema } from './jobs/worker.js';
import { AccessRepo } from './modules/access/access.repo.js';
import { AccessService } from './modules/access/access.service.js';
import { AuthRepo } from './modules/auth/auth.repo.js';
import { AuthService } from './modules/auth/auth.service.js';
import { DatasetsRepo } from './modules/datasets/datasets.repo.js';
import { DatasetsService } from './modules/datasets/datasets.service.js';
import { TasksRepo } from './modules/tasks/tasks.repo.js';
import { TasksService } from './modules/tasks/tasks.service.js';

export interface Container {
  config: Config;
  database: DatabaseHandle;
  repos: { tasks: TasksRepo };
  services: { auth: AuthService; datasets: DatasetsService; access: AccessService; tasks: TasksService };
  checkDatabase: () => Promise<void>;
  close(): Promise<void>;
}

/** The composition root: picks adapters from config and wires repos into services, once. */
export async function createContainer(config: Config, log: Logger, owner: EmbeddedOwner): Promise<Container> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, owner }, log);
  try {
    await installQueueSchema(database.pool);
  } catch (err) {
    await database.close();
    throw err;
  }
  const { db } = database;
  const keyBox = new KeyBox(loadServerKey(config.secretKey, config.dataDir));

  const tasksRepo = new TasksRepo(db, database.pool);
  const auth = new AuthService(new AuthRepo(db), keyBox, config);
  const datasets = new DatasetsService(new DatasetsRepo(db));
  const access = new AccessService(new AccessRepo(db), datasets, auth);
  const tasks = new TasksService(tasksRepo, datasets);

  const events = new PgEvents(database.connection, log, () => auth.forgetKey());
  events.on(CHANNELS.apiKeyRevoked, (apiKey) => auth.forgetKey(apiKey));
  try {
    await events.start();
  } catch (err) {
    await database.close();
    throw err;
  }

  return {
    config,
    database,
    repos: { tasks: tasksRepo },
    services: { auth, datasets, access, tasks },
    checkDatabase: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await events.close();
      await database.close();
    },
  };
}
