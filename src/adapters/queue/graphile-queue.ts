import { Logger as GraphileLogger, type Runner, type TaskList, run, runMigrations } from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';

/** The one place that knows the job queue is graphile-worker: its schema, its SQL, its runner. */

export interface AddJobOptions {
  /** A job with the same key is one job: adding again replaces it while it waits, or queues a new one while it runs. */
  key?: string;
  maxAttempts?: number;
  /** False keeps the run time of a job already waiting under the key (a recurring job scheduled at every boot). */
  replace?: boolean;
  runAt?: Date;
}

/** The queue's own tables; every role installs them because the API enqueues jobs in its transactions. */
export function installQueueSchema(pool: pg.Pool): Promise<void> {
  return runMigrations({ pgPool: pool, logger: silentGraphileLogger });
}

/** Queues a job in the caller's transaction, so the job exists exactly when the rows that asked for it do. */
export async function addJob(trx: Db, name: string, payload: Record<string, unknown>, options: AddJobOptions = {}): Promise<void> {
  await sql`select graphile_worker.add_job(${name}::text, ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ?? null}::timestamptz, max_attempts => ${options.maxAttempts ?? null}::int,
    job_key => ${options.key ?? null}::text, job_key_mode => ${options.replace === false ? 'preserve_run_at' : 'replace'}::text)`.execute(trx);
}

/** What a handler learns about the job it runs. */
export interface QueueJobInfo {
  /** The id of the queue worker holding the job's lock. */
  lockedBy: string | null;
}

export type QueueHandler = (payload: unknown, job: QueueJobInfo) => Promise<void>;

export interface QueueRunnerOptions {
  pool: pg.Pool;
  concurrency: number;
  /** Only jobs of these names are taken by this runner. */
  handlers: Record<string, QueueHandler>;
  log: Logger;
  pollIntervalMs?: number;
  /** A job that threw this was stopped on purpose (a shutdown): it runs again later, so it is logged as info, not as a failure. */
  isStop?: (err: unknown) => boolean;
}

export interface QueueRunner {
  stop(): Promise<void>;
}

export async function startQueueRunner(options: QueueRunnerOptions): Promise<QueueRunner> {
  const taskList: TaskList = {};
  for (const [name, handler] of Object.entries(options.handlers)) {
    taskList[name] = (payload, helpers) => handler(payload, { lockedBy: helpers.job.locked_by });
  }
  const runner: Runner = await run({
    pgPool: options.pool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: options.pollIntervalMs ?? 1_000,
    taskList,
    logger: graphileLogger(options.log, options.isStop ?? (() => false)),
  });
  return { stop: () => runner.stop() };
}

/** A queued job as crash recovery sees it. */
export interface QueuedJob {
  key: string;
  attempts: number;
  maxAttempts: number;
}

/** Reads and repairs of the queue's state for crash recovery, through graphile-worker's public view and functions. */
export class QueueInspector {
  constructor(private readonly db: Db) {}

  /** Hands the jobs locked by these (dead) queue workers back to the queue. */
  async forceUnlockWorkers(workerIds: string[]): Promise<void> {
    if (workerIds.length > 0) await sql`select graphile_worker.force_unlock_workers(${workerIds}::text[])`.execute(this.db);
  }

  /** Every queue worker id holding a job lock; only meaningful when this process owns the database alone. */
  async lockHolders(): Promise<string[]> {
    const result = await sql<{ locked_by: string }>`select distinct locked_by from graphile_worker.jobs where locked_by is not null`.execute(this.db);
    return result.rows.map((r) => r.locked_by);
  }

  /** The jobs queued under these keys, by key. */
  async jobsByKey(keys: string[]): Promise<Map<string, QueuedJob>> {
    if (keys.length === 0) return new Map();
    const result = await sql<{ key: string; attempts: number; max_attempts: number }>`
      select key, attempts, max_attempts from graphile_worker.jobs where key = any(${keys}::text[])`.execute(this.db);
    return new Map(result.rows.map((r) => [r.key, { key: r.key, attempts: r.attempts, maxAttempts: r.max_attempts }]));
  }
}

const silentGraphileLogger = new GraphileLogger(() => () => {});

function graphileLogger(log: Logger, isStop: (err: unknown) => boolean): GraphileLogger {
  const child = log.child({ component: 'graphile-worker' });
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { ...scope, ...meta };
    if (isStop(meta?.error)) {
      const job = meta?.job as { id?: string; task_identifier?: string } | undefined;
      child.info({ ...scope, job: { id: job?.id, task_identifier: job?.task_identifier } }, 'job stopped by shutdown; it resumes on the next start');
    } else if (level === 'error') child.error(fields, message);
    else if (level === 'warning') child.warn(fields, message);
    else child.debug(fields, message);
  });
}

/**
 * The queue's jobs as a backup keeps them, one row each, for COPY ... TO: name, payload, queue, run time, the attempts
 * it has left (a job that has none can never run again and is left out), key, priority, flags. Locks are not kept: a
 * restored instance is one whose workers all stopped, and restart recovery decides per task whether it resumes.
 */
export const QUEUE_BACKUP_COLUMNS = ['task_identifier', 'payload', 'queue_name', 'run_at', 'attempts_left', 'key', 'priority', 'flags'] as const;
export const QUEUE_BACKUP_QUERY = `select t.identifier as task_identifier, j.payload, q.queue_name, j.run_at, j.max_attempts - j.attempts as attempts_left,
    j.key, j.priority, array(select jsonb_object_keys(coalesce(j.flags, '{}'::jsonb))) as flags
  from graphile_worker._private_jobs j
  join graphile_worker._private_tasks t on t.id = j.task_id
  left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
  where j.attempts < j.max_attempts
  order by j.id`;
export const QUEUE_BACKUP_TABLE_DDL = `(task_identifier text, payload json, queue_name text, run_at timestamptz, attempts_left int, key text, priority int, flags text[])`;

/** Queues again, through add_job, the jobs a backup kept (QUEUE_BACKUP_QUERY), loaded into `table`; returns how many. */
export async function requeueBackedUpJobs(client: pg.ClientBase, table: string): Promise<number> {
  const result = await client.query(`select count(graphile_worker.add_job(task_identifier, payload, queue_name, run_at, attempts_left, key, priority,
      case when cardinality(flags) = 0 then null else flags end)) as n from ${table}`);
  return Number(result.rows[0].n);
}
