import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../adapters/db/database.js';

/** Worker liveness and the task rows crash recovery looks at (the queue's side is the queue adapter's). */
export class WorkerRepo {
  constructor(private readonly db: Db) {}

  async heartbeat(instanceId: string): Promise<void> {
    await this.db
      .insertInto('worker_instances')
      .values({ id: instanceId, heartbeat_at: sql`now()` as unknown as Date })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: sql`now()` as unknown as Date }))
      .execute();
  }

  async removeInstance(instanceId: string): Promise<void> {
    await this.db.deleteFrom('worker_instances').where('id', '=', instanceId).execute();
  }

  /**
   * Active tasks that may have lost their worker: claimed by an instance with no recent heartbeat (or, when
   * this worker owns the database alone, by any other instance), or not claimed at all (queued: orphaned
   * only when no job is left to run them, which the caller checks in the queue).
   */
  async findOrphanCandidates(selfId: string, staleAfterSeconds: number, exclusive: boolean) {
    const liveOthers: Expression<SqlBool> = exclusive
      ? sql<SqlBool>`false`
      : sql<SqlBool>`exists (select 1 from worker_instances w where w.id = t.worker_instance
          and w.heartbeat_at > now() - make_interval(secs => ${staleAfterSeconds}))`;
    const result = await sql<{ id: string; job_locked_by: string | null; claimed: boolean }>`
      select t.id, t.job_locked_by, t.worker_instance is not null as claimed
      from tasks t
      where t.status in ('INITIALIZING', 'RUNNING')
        and (t.worker_instance is null or (t.worker_instance <> ${selfId} and not ${liveOthers}))`.execute(this.db);
    return result.rows;
  }
}
