import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../adapters/db/database.js';
import { addJob } from '../adapters/queue/graphile-queue.js';
import type { IngestionRepo } from '../modules/ingestion/ingestion.repo.js';
import { type MediaProcessingDeps, processUploadFile } from '../modules/media/media-processing.js';
import type { TasksRepo } from '../modules/tasks/tasks.repo.js';
import { forEachConcurrent } from './lib/concurrency.js';

/**
 * The media stage spread over workers (issue 24): a task run splits its pending upload files into chunks
 * (media_chunks, migration 0040) and queues a `media-chunk` job for each but one; every worker that takes such a job,
 * and the task's own run, claims chunks one at a time until none is left. A claim lives while its claimer beats; a
 * worker that dies stops beating and its chunk is claimed again by another after `staleSeconds`. Files are linked to
 * their media one transaction each (processUploadFile), so a chunk taken over never brings a file in twice.
 */
export const MEDIA_CHUNK_JOB = 'media-chunk';

export interface MediaChunkDeps extends MediaProcessingDeps {
  ingestion: IngestionRepo;
  tasks: Pick<TasksRepo, 'isLiveRun'>;
  /** Media decoded at once by one claimer. */
  concurrency: number;
  /** Upload files per chunk. */
  chunkFiles: number;
  /** A claim whose heartbeat is this old is taken for dead. */
  staleSeconds: number;
}

/** What processing chunks needs; the job also checks its task's liveness. */
export type ChunkWorkDeps = Omit<MediaChunkDeps, 'tasks'>;

export interface ChunkRun {
  taskId: string;
  attempt: number;
  /** Media decoded at once, when the task asks for fewer than the worker's default. */
  concurrency?: number;
}

type Claimed = { chunk: number; file_ids: string[] };

/** How often the task's own run looks at the chunks others hold, and a job checks that its task is still running. */
const POLL_MS = 500;

/** Splits the run's pending files into chunks, once per run (a rerun of the same attempt finds them); earlier runs' go. */
export async function planChunks(db: Db, run: ChunkRun, fileIds: readonly string[], chunkFiles: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`media-chunks:${run.taskId}`}))`.execute(trx);
    await trx.deleteFrom('media_chunks').where('task_id', '=', run.taskId).where('attempt', '<>', run.attempt).execute();
    const existing = await trx.selectFrom('media_chunks').select(sql<number>`count(*)::int`.as('n')).where('task_id', '=', run.taskId).where('attempt', '=', run.attempt).executeTakeFirstOrThrow();
    if (existing.n > 0) return existing.n;
    const rows = [];
    for (let start = 0, chunk = 0; start < fileIds.length; start += chunkFiles, chunk++) {
      rows.push({ task_id: run.taskId, attempt: run.attempt, chunk, file_ids: fileIds.slice(start, start + chunkFiles) });
    }
    if (rows.length > 0) await trx.insertInto('media_chunks').values(rows).execute();
    return rows.length;
  });
}

/** The first chunk of the run that nobody holds (or whose holder stopped beating), now held by `claimer`. */
export async function claimChunk(db: Db, run: ChunkRun, claimer: string, staleSeconds: number): Promise<Claimed | null> {
  const { rows } = await sql<Claimed>`
    update media_chunks c set claimed_by = ${claimer}, heartbeat_at = now()
    from (select task_id, attempt, chunk from media_chunks
          where task_id = ${run.taskId}::uuid and attempt = ${run.attempt} and done_at is null
            and (claimed_by is null or heartbeat_at < now() - make_interval(secs => ${staleSeconds}))
          order by chunk limit 1 for update skip locked) free
    where (c.task_id, c.attempt, c.chunk) = (free.task_id, free.attempt, free.chunk)
    returning c.chunk, c.file_ids`.execute(db);
  return rows[0] ?? null;
}

/** How far the run's chunks are: how many there are, how many are done, and the first error one ended with. */
export async function chunkState(db: Db, run: ChunkRun): Promise<{ total: number; done: number; error: string | null }> {
  const { rows } = await sql<{ total: number; done: number; error: string | null }>`
    select count(*)::int as total, count(done_at)::int as done, (array_agg(error order by chunk) filter (where error is not null))[1] as error
    from media_chunks where task_id = ${run.taskId}::uuid and attempt = ${run.attempt}`.execute(db);
  return rows[0]!;
}

/**
 * Processes a claimed chunk's files that are still pending, beating for the claim meanwhile. Marks the chunk done, or
 * done with the error that stopped it (the task's run fails with it); on abort or shutdown it lets the claim go, so
 * another claimer takes the rest at once. `onFile` follows each file.
 */
export async function runChunk(deps: ChunkWorkDeps, run: ChunkRun, claimed: Claimed, claimer: string, signal: AbortSignal, onFile: () => Promise<void> = async () => {}): Promise<void> {
  const key = sql`task_id = ${run.taskId}::uuid and attempt = ${run.attempt} and chunk = ${claimed.chunk} and claimed_by = ${claimer}`;
  const lost = new AbortController();
  const beat = setInterval(() => {
    sql`update media_chunks set heartbeat_at = now() where ${key}`
      .execute(deps.db)
      .then((r) => {
        if (Number(r.numAffectedRows ?? 0) === 0) lost.abort(new Error('chunk claimed by another worker'));
      })
      .catch(() => {});
  }, Math.max(200, (deps.staleSeconds * 1000) / 3));
  const both = AbortSignal.any([signal, lost.signal]);
  try {
    // A claimer that stalled past the stale time may find its chunk taken: then it leaves it to the new holder.
    const held = await sql`select 1 from media_chunks where ${key} and done_at is null`.execute(deps.db);
    if (held.rows.length === 0) return;
    const files = await deps.db
      .selectFrom('upload_files')
      .selectAll()
      .where('id', 'in', claimed.file_ids)
      .where('media_id', 'is', null)
      .where('error', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    await forEachConcurrent(
      files,
      run.concurrency ?? deps.concurrency,
      async (file) => {
        await processUploadFile(deps, file, both);
        await onFile();
      },
      both,
    );
    await sql`update media_chunks set done_at = now() where ${key}`.execute(deps.db);
  } catch (err) {
    if (both.aborted) {
      await sql`update media_chunks set claimed_by = null, heartbeat_at = null where ${key}`.execute(deps.db).catch(() => {});
      throw both.reason;
    }
    const message = err instanceof Error ? err.message : String(err);
    await sql`update media_chunks set done_at = now(), error = ${message} where ${key}`.execute(deps.db);
    throw err;
  } finally {
    clearInterval(beat);
  }
}

/** A claimer's name: its role, its process (host and pid, for the operator) and a random part (no two share one). */
export const claimerName = (role: 'task' | 'job') => `${role}:${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * The media stage of a run over `fileIds` (its pending files): plans the chunks, queues a job for all but one, then
 * claims and processes chunks itself until none is left to claim, waiting meanwhile for those others hold. Throws the
 * first chunk's error; `progress` is called after each file and while waiting.
 */
export async function processInChunks(deps: ChunkWorkDeps, run: ChunkRun, fileIds: readonly string[], signal: AbortSignal, progress: () => Promise<void>): Promise<void> {
  const total = await planChunks(deps.db, run, fileIds, deps.chunkFiles);
  for (let i = 1; i < total; i++) {
    await addJob(deps.db, MEDIA_CHUNK_JOB, { taskId: run.taskId, attempt: run.attempt, ...(run.concurrency ? { concurrency: run.concurrency } : {}) }, { maxAttempts: 1 });
  }
  const claimer = claimerName('task');
  for (;;) {
    signal.throwIfAborted();
    const claimed = await claimChunk(deps.db, run, claimer, deps.staleSeconds);
    if (claimed) {
      await runChunk(deps, run, claimed, claimer, signal, progress);
      continue;
    }
    const state = await chunkState(deps.db, run);
    if (state.error !== null) throw new Error(state.error);
    if (state.done === state.total) return;
    await progress();
    await sleep(POLL_MS, undefined, { signal });
  }
}

/**
 * The `media-chunk` job: claims and processes the run's chunks while any is free and the run is still the task's
 * live one (an abort or a retry ends it between files). Its failures are the chunk's (recorded for the task's run).
 */
export function mediaChunkJob(deps: MediaChunkDeps) {
  return async (payload: unknown, signal: AbortSignal): Promise<void> => {
    const run = payload as ChunkRun;
    const stopped = new AbortController();
    const poll = setInterval(() => {
      deps.tasks
        .isLiveRun(run.taskId, run.attempt)
        .then((live) => !live && stopped.abort(new Error('the task is no longer running')))
        .catch(() => {});
    }, POLL_MS);
    const both = AbortSignal.any([signal, stopped.signal]);
    const claimer = claimerName('job');
    try {
      while (!both.aborted && (await deps.tasks.isLiveRun(run.taskId, run.attempt))) {
        const claimed = await claimChunk(deps.db, run, claimer, deps.staleSeconds);
        if (!claimed) return;
        try {
          await runChunk(deps, run, claimed, claimer, both);
        } catch (err) {
          // A task stopped meanwhile is not this job's failure; a shutdown is the worker's to report.
          if (stopped.signal.aborted) return;
          throw err;
        }
      }
    } finally {
      clearInterval(poll);
    }
  };
}
