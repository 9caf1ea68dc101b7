import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../adapters/db/database.js';

/** Worker liveness and the queries crash recovery needs (graphile-worker's own tables included). */
export class WorkerRepo {
  constructor(private readonly db: Db) {}

  async heartbeat(instanceId: string): Promise<void> {
    await this.db
      .insertInto('worker_instances')
      .values({ id: instanceId, heartbeat_at: sql`now()` as unknown as Date })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` as unknown as Date }))
      .execute();
  }

  async forceUnlockJobs(workerIds: string[]): Promise<void> {
    if (workerIds.length > 0) await sql`select graphile_worker.force_unlock_workers(${workerIds}::text[])`.execute(this.db);
  }

  /** Every graphile worker id holding a job lock; only meaningful when this process owns the database alone. */
  async jobLockHolders(): Promise<string[]> {
    const result = await sql<{ locked_by: string }>`
      select distinct locked_by from graphile_worker._private_jobs where locked_by is not null`.execute(this.db);
    return result.rows.map((r) => r.locked_by);
  }

  async removeInstance(instanceId: string): Promise<void> {
    await this.db.deleteFrom('worker_instances').where('id', '=', instanceId).execute();
  }

  /**
   * Active tasks whose worker is gone: claimed by an instance with no recent heartbeat (or, when this
   * worker owns the database alone, by any other instance), or queued with no job left to run them.
   */
  async findOrphans(selfId: string, staleAfterSeconds: number, exclusive: boolean) {
    const liveOthers: Expression<SqlBool> = exclusive
      ? sql<SqlBool>`false`
      : sql<SqlBool>`exists (select 1 from worker_instances w where w.id = t.worker_instance
          and w.heartbeat_at > now() - make_interval(secs => ${staleAfterSeconds}))`;
    const result = await sql<{ id: string; job_locked_by: string | null; job_runnable: boolean; job_exists: boolean }>`
      select t.id, t.job_locked_by,
        coalesce(j.attempts < j.max_attempts, false) as job_runnable,
        j.id is not null as job_exists
      from tasks t
      left join graphile_worker._private_jobs j on j.key = t.id::text
      where t.status in ('INITIALIZING', 'RUNNING')
        and (
          (t.worker_instance is not null and t.worker_instance <> ${selfId} and not ${liveOthers})
          or (t.worker_instance is null and j.id is null)
        )`.execute(this.db);
    return result.rows;
  }
}
