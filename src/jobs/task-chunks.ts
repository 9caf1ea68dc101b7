import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../adapters/db/database.js';
import { addJob } from '../adapters/queue/graphile-queue.js';
import type { TasksRepo } from '../modules/tasks/tasks.repo.js';

/**
 * A task's per-item stage spread over workers (issue 24): the media stage of creation and add media, and enrichment.
 * A task run splits its pending items into ranges of ids (task_chunks, migration 0040) and queues a `task-chunk` job
 * for each but one (64 at most); every worker that takes such a job, and the task's own run, claims chunks one at a
 * time until none is left. A claim lives while its claimer beats; a worker that dies stops beating and its chunk is claimed
 * again by another after `staleSeconds`. The work on an item must be idempotent (an item is done once, in one
 * transaction), so a chunk taken over never counts an item twice.
 */
export const TASK_CHUNK_JOB = 'task-chunk';

/** The kinds of chunked work, named in a chunk job's payload. */
export type ChunkKind = 'media' | 'enrichment';

export interface ChunkRun {
  taskId: string;
  attempt: number;
  kind: ChunkKind;
}

/** A chunk: the items whose ids are in [first, last], in id order. */
export interface ChunkRange {
  first: string;
  last: string;
}

/** The work of one chunk: its items still pending, each done once; `onItem` follows each. */
export type ChunkWork = (range: ChunkRange, signal: AbortSignal, onItem: () => Promise<void>) => Promise<void>;

export interface ChunkDeps {
  db: Db;
  /** A claim whose heartbeat is this old is taken for dead. */
  staleSeconds: number;
}

type Claimed = { chunk: number; first_id: string; last_id: string };

/** Chunk jobs one run queues at most (a 1M-media enrichment has 5,000 chunks): more than any install's free job slots. */
const MAX_CHUNK_JOBS = 64;

/** How often the task's own run looks at the chunks others hold, and a job checks that its task is still running. */
const POLL_MS = 500;

/** Ids sorted as PostgreSQL sorts uuids (byte order, which is the hex text's order), cut into ranges of `size`. */
export function idRanges(ids: readonly string[], size: number): ChunkRange[] {
  const sorted = [...ids].sort();
  const ranges: ChunkRange[] = [];
  for (let start = 0; start < sorted.length; start += size) ranges.push({ first: sorted[start]!, last: sorted[Math.min(sorted.length, start + size) - 1]! });
  return ranges;
}

/** The run's chunks, planned once (a rerun of the same attempt finds them); earlier runs' go. */
export async function planChunks(db: Db, run: ChunkRun, ranges: () => Promise<ChunkRange[]>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`task-chunks:${run.taskId}`}))`.execute(trx);
    await trx.deleteFrom('task_chunks').where('task_id', '=', run.taskId).where('attempt', '<>', run.attempt).execute();
    const existing = await trx.selectFrom('task_chunks').select(sql<number>`count(*)::int`.as('n')).where('task_id', '=', run.taskId).where('attempt', '=', run.attempt).executeTakeFirstOrThrow();
    if (existing.n > 0) return existing.n;
    const rows = (await ranges()).map((r, chunk) => ({ task_id: run.taskId, attempt: run.attempt, chunk, first_id: r.first, last_id: r.last }));
    for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('task_chunks').values(rows.slice(i, i + 1000)).execute();
    return rows.length;
  });
}

/** The first chunk of the run that nobody holds (or whose holder stopped beating), now held by `claimer`. */
export async function claimChunk(db: Db, run: Pick<ChunkRun, 'taskId' | 'attempt'>, claimer: string, staleSeconds: number): Promise<Claimed | null> {
  const { rows } = await sql<Claimed>`
    update task_chunks c set claimed_by = ${claimer}, heartbeat_at = now()
    from (select task_id, attempt, chunk from task_chunks
          where task_id = ${run.taskId}::uuid and attempt = ${run.attempt} and done_at is null
            and (claimed_by is null or heartbeat_at < now() - make_interval(secs => ${staleSeconds}))
          order by chunk limit 1 for update skip locked) free
    where (c.task_id, c.attempt, c.chunk) = (free.task_id, free.attempt, free.chunk)
    returning c.chunk, c.first_id, c.last_id`.execute(db);
  return rows[0] ?? null;
}

/** How far the run's chunks are: how many there are, how many are done, and the first error one ended with. */
export async function chunkState(db: Db, run: Pick<ChunkRun, 'taskId' | 'attempt'>): Promise<{ total: number; done: number; error: string | null }> {
  const { rows } = await sql<{ total: number; done: number; error: string | null }>`
    select count(*)::int as total, count(done_at)::int as done, (array_agg(error order by chunk) filter (where error is not null))[1] as error
    from task_chunks where task_id = ${run.taskId}::uuid and attempt = ${run.attempt}`.execute(db);
  return rows[0]!;
}

/**
 * Runs `work` over a claimed chunk, beating for the claim meanwhile. Marks the chunk done, or done with the error that
 * stopped it (the task's run fails with it); on abort or shutdown, or when the claim was lost to another claimer, it
 * lets the chunk go unfinished, so another takes the rest at once.
 */
export async function runChunk(deps: ChunkDeps, run: Pick<ChunkRun, 'taskId' | 'attempt'>, claimed: Claimed, claimer: string, signal: AbortSignal, work: ChunkWork, onItem: () => Promise<void> = async () => {}): Promise<void> {
  const key = sql`task_id = ${run.taskId}::uuid and attempt = ${run.attempt} and chunk = ${claimed.chunk} and claimed_by = ${claimer}`;
  const lost = new AbortController();
  const beat = setInterval(() => {
    sql`update task_chunks set heartbeat_at = now() where ${key}`
      .execute(deps.db)
      .then((r) => {
        if (Number(r.numAffectedRows ?? 0) === 0) lost.abort(new Error('chunk claimed by another worker'));
      })
      .catch(() => {});
  }, Math.max(200, (deps.staleSeconds * 1000) / 3));
  const both = AbortSignal.any([signal, lost.signal]);
  try {
    // A claimer that stalled past the stale time may find its chunk taken: then it leaves it to the new holder.
    const held = await sql`select 1 from task_chunks where ${key} and done_at is null`.execute(deps.db);
    if (held.rows.length === 0) return;
    await work({ first: claimed.first_id, last: claimed.last_id }, both, onItem);
    await sql`update task_chunks set done_at = now() where ${key}`.execute(deps.db);
  } catch (err) {
    if (both.aborted) {
      await sql`update task_chunks set claimed_by = null, heartbeat_at = null where ${key}`.execute(deps.db).catch(() => {});
      if (lost.signal.aborted && !signal.aborted) return;
      throw both.reason;
    }
    const message = err instanceof Error ? err.message : String(err);
    await sql`update task_chunks set done_at = now(), error = ${message} where ${key}`.execute(deps.db);
    throw err;
  } finally {
    clearInterval(beat);
  }
}

/**
 * `report` at most once every `ms` (each call reads the database), unless forced: how a chunked stage's progress,
 * called after every item of every chunk, counts the items done.
 */
export function throttled(report: () => Promise<void>, ms: number): (force?: boolean) => Promise<void> {
  let last = 0;
  return async (force = false) => {
    if (!force && performance.now() - last < ms) return;
    last = performance.now();
    await report();
  };
}

/** A claimer's name: its role, its process (host and pid, for the operator) and a random part (no two share one). */
export const claimerName = (role: 'task' | 'job') => `${role}:${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * A task run's chunked stage: plans the chunks, queues a job for all but one, then claims and works chunks itself
 * until none is left to claim, waiting meanwhile for those others hold. Throws the first chunk's error; `progress` is
 * called after each item and while waiting. `payload` goes to the jobs with the run (what they need beyond the task).
 */
export async function runInChunks(deps: ChunkDeps, run: ChunkRun, ranges: () => Promise<ChunkRange[]>, work: ChunkWork, signal: AbortSignal, progress: () => Promise<void>, payload: Record<string, unknown> = {}): Promise<void> {
  const total = await planChunks(deps.db, run, ranges);
  // Each job claims chunks until none is free, so the jobs need only match the workers' free slots, not the chunks.
  for (let i = 1; i < Math.min(total, MAX_CHUNK_JOBS + 1); i++) await addJob(deps.db, TASK_CHUNK_JOB, { ...payload, ...run }, { maxAttempts: 1 });
  const claimer = claimerName('task');
  for (;;) {
    signal.throwIfAborted();
    const claimed = await claimChunk(deps.db, run, claimer, deps.staleSeconds);
    if (claimed) {
      await runChunk(deps, run, claimed, claimer, signal, work, progress);
      continue;
    }
    const state = await chunkState(deps.db, run);
    if (state.error !== null) throw new Error(state.error);
    if (state.done === state.total) return;
    await progress();
    await sleep(POLL_MS, undefined, { signal });
  }
}

export interface TaskChunkJobDeps extends ChunkDeps {
  tasks: Pick<TasksRepo, 'isLiveRun'>;
  /** The work of each kind for a run, from the job's payload (what the task's run passed). */
  works: Record<ChunkKind, (payload: Record<string, unknown>) => ChunkWork>;
}

/**
 * The `task-chunk` job: claims and works the run's chunks while any is free and the run is still the task's live one
 * (an abort or a retry ends it between items). Its failures are the chunk's (recorded for the task's run).
 */
export function taskChunkJob(deps: TaskChunkJobDeps) {
  return async (body: unknown, signal: AbortSignal): Promise<void> => {
    const payload = body as Record<string, unknown> & ChunkRun;
    const stopped = new AbortController();
    const poll = setInterval(() => {
      deps.tasks
        .isLiveRun(payload.taskId, payload.attempt)
        .then((live) => !live && stopped.abort(new Error('the task is no longer running')))
        .catch(() => {});
    }, POLL_MS);
    const both = AbortSignal.any([signal, stopped.signal]);
    const claimer = claimerName('job');
    try {
      if (!(await deps.tasks.isLiveRun(payload.taskId, payload.attempt))) return;
      const work = deps.works[payload.kind](payload);
      while (!both.aborted) {
        const claimed = await claimChunk(deps.db, payload, claimer, deps.staleSeconds);
        if (!claimed) return;
        try {
          await runChunk(deps, payload, claimed, claimer, both, work);
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
