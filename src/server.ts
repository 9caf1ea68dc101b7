import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.js';
import { assertPortFree } from './http/port-check.js';
import type { Config } from './config.js';
import { type Container, type SharedPools, createContainer } from './container.js';
import { type JobDefinition, checkRegistry, declaredJobs } from './jobs/registry.js';
import { SweepHealth } from './jobs/sweep-health.js';
import { SWEEP_NAMES } from './jobs/sweeps.js';
import { type Worker, startWorker } from './jobs/worker.js';

export interface Loupe {
  container: Container;
  app: FastifyInstance | null;
  worker: Worker | null;
  /** The address the API listens on, when this process runs the API role. */
  url: string | null;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** Task handlers that replace the declared ones of the same types (tests register stand-ins). */
  jobs?: JobDefinition[];
  workerTimings?: { heartbeatMs?: number; staleAfterSeconds?: number; recoveryIntervalMs?: number; abortPollMs?: number; sweepIntervalMs?: number };
  /**
   * Image and enrichment worker pools the caller made for this config and closes itself: the servers a test process
   * starts one after another share them, so each thread loads its models once instead of once per server.
   */
  pools?: SharedPools;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Readable lines for a person at a terminal; JSON lines for everything else (log collectors, files, pipes). */
function prettyTransport(): { target: string } | undefined {
  return process.stdout.isTTY ? { target: createRequire(import.meta.url).resolve('pino-pretty') } : undefined;
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    transport: prettyTransport(),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.api_secret', '*.password'], censor: '[redacted]' },
    serializers: {
      // A signed media link is a credential for an hour: log the path, never the signature.
      req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(/([?&]signature=)[^&]*/, '$1[redacted]'),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  });
}

/** How long requests in flight get to finish when the server stops, before their connections are closed. */
const HTTP_DRAIN_MS = 10_000;

/**
 * Stops taking requests and lets those in flight finish, for HTTP_DRAIN_MS at most: a keep-alive connection whose last
 * answer was a streamed file is not seen as idle by Node, and close() alone waited out its whole 72 s keep-alive.
 */
async function closeHttp(app: FastifyInstance): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), HTTP_DRAIN_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/** Starts the roles the config asks for; `close()` stops them in order (HTTP, then jobs, then the database). */
export async function startLoupe(config: Config, options: StartOptions = {}): Promise<Loupe> {
  const log = options.log ?? createLogger(config);
  if (config.role !== 'worker') await assertPortFree(config.host, config.port);
  const container = await createContainer(config, log, 'server', options.pools);
  let jobs: ReturnType<typeof checkRegistry>;
  try {
    jobs = checkRegistry(declaredJobs(container.jobDeps, options.jobs));
  } catch (err) {
    await container.close();
    throw err;
  }
  let app: FastifyInstance | null = null;
  let worker: Worker | null = null;
  let url: string | null = null;
  const sweepHealth = new SweepHealth(SWEEP_NAMES);

  let joined = false;
  const close = async () => {
    if (app) await closeHttp(app);
    await container.alerts.stop();
    await worker?.stop();
    if (joined) await container.nodes.leave().catch((err: unknown) => log.warn({ err }, 'leaving the nodes table failed'));
    await container.close();
  };

  try {
    await container.nodes.join();
    joined = true;
    if (config.role !== 'api') {
      worker = await startWorker({
        pool: container.database.pool,
        db: container.database.db,
        tasks: container.repos.tasks,
        lifecycle: container.lifecycle,
        jobs,
        log,
        concurrency: config.workerConcurrency,
        exclusive: config.databaseUrl === null,
        sweepHealth,
        ...options.workerTimings,
      });
      container.alerts.start(config.alertSweepSeconds * 1000);
    }
    if (config.role !== 'worker') {
      if (config.authMode === 'none') {
        const local = await container.services.auth.localUser();
        log.warn({ user: local.email, host: config.host }, 'LOUPE_AUTH=none: requests without credentials act as the local user');
      }
      app = await buildApp({
        log,
        services: container.services,
        checkDatabase: container.checkDatabase,
        metrics: { taskTotals: () => container.repos.tasks.totals() },
        // Only a process that runs the sweeps knows how they fare.
        sweeps: config.role === 'all' ? () => sweepHealth.snapshot() : undefined,
        publicUrl: config.publicUrl,
        version,
        processRoutes: config.role === 'all',
      });
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    }
  } catch (err) {
    await close().catch((closeErr: unknown) => log.error({ err: closeErr }, 'cleanup after a failed start failed'));
    throw err;
  }
  return { container, app, worker, url, close };
}
