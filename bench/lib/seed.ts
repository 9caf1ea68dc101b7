import { sql } from 'kysely';
import type { Loupe } from '../../src/server.js';

export interface Seeded {
  userId: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  datasetIds: string[];
  taskCount: number;
}

/**
 * One user owning `datasets` datasets and `tasks` task rows written straight into `tasks` by a single
 * INSERT ... SELECT over generate_series. No graphile jobs are queued: these rows only feed the list.
 * The mix (fixed seed, so runs are comparable):
 *   task_type  MEDIA_ADDITION 35%, DATASET_CREATION 20%, ENRICHMENT 15%, REINDEX 10%, CUSTOM_METADATA 10%,
 *              SNAPSHOT_RESTORE 5%, SNAPSHOT_CLONE 5%
 *   status     COMPLETED 85%, FAILED 9%, ABORTED 3%, RUNNING 2%, INITIALIZING 1%
 *   start_time uniform over the last 90 days (active tasks: the last 6 hours)
 *   dataset    skewed: a few datasets hold most tasks
 */
export async function seedTasks(loupe: Loupe, opts: { datasets: number; tasks: number }): Promise<Seeded> {
  const { auth, datasets } = loupe.container.services;
  const { db } = loupe.container.database;
  const issued = await auth.createUser('bench@example.com');
  const principal = { userId: issued.user_id, email: issued.email };
  const datasetIds: string[] = [];
  for (let i = 1; i <= opts.datasets; i++) {
    datasetIds.push(await datasets.create(principal, `bench-dataset-${String(i).padStart(2, '0')}`));
  }
  await db.updateTable('datasets').set({ status_new: 'READY' }).where('owner_id', '=', principal.userId).execute();

  await db.transaction().execute(async (trx) => {
    await sql`select setseed(0.42)`.execute(trx);
    await sql`
      insert into tasks (dataset_id, task_type, status, status_message, progress_percentage, error_message,
                         created_by, phase, start_time, end_time)
      select
        ds[1 + least(floor(r5 * r5 * n)::int, n - 1)],
        case when r1 < 0.35 then 'MEDIA_ADDITION' when r1 < 0.55 then 'DATASET_CREATION'
             when r1 < 0.70 then 'ENRICHMENT' when r1 < 0.80 then 'REINDEX' when r1 < 0.90 then 'CUSTOM_METADATA'
             when r1 < 0.95 then 'SNAPSHOT_RESTORE' else 'SNAPSHOT_CLONE' end,
        status,
        case status when 'COMPLETED' then 'Completed' when 'FAILED' then 'Failed' when 'ABORTED' then 'Aborted by user'
                    when 'RUNNING' then 'Running' else 'Queued' end,
        case status when 'COMPLETED' then 100 when 'INITIALIZING' then null else floor(r4 * 100)::int end,
        case when status = 'FAILED' then 'Worker error: could not read media file #' || g else null end,
        ${principal.userId}::uuid,
        case when status = 'COMPLETED' then 'commit' else 'work' end,
        start_time,
        case when status in ('COMPLETED', 'FAILED', 'ABORTED')
             then least(now(), start_time + r4 * interval '2 hours') else null end
      from (
        select g, r1, r4, r5, ${datasetIds}::uuid[] as ds, ${datasetIds.length}::int as n, status,
               case when status in ('RUNNING', 'INITIALIZING') then now() - r3 * interval '6 hours'
                    else now() - r3 * interval '90 days' end as start_time
        from (
          select g, random() as r1, random() as r3, random() as r4, random() as r5,
                 (case when r2 < 0.85 then 'COMPLETED' when r2 < 0.94 then 'FAILED' when r2 < 0.97 then 'ABORTED'
                       when r2 < 0.99 then 'RUNNING' else 'INITIALIZING' end) as status
          from (select g, random() as r2 from generate_series(1, ${opts.tasks}::int) as g) as base
        ) as mixed
      ) as seeded`.execute(trx);
  });
  await sql`analyze tasks`.execute(db);
  await sql`analyze datasets`.execute(db);
  const { count } = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return { userId: principal.userId, email: principal.email, apiKey: issued.api_key, apiSecret: issued.api_secret, datasetIds, taskCount: count };
}
