import { type Kysely, sql } from 'kysely';

/**
 * The staging rows' foreign key to their task was checked row by row, locking the task row each time while the
 * import reported progress on it: more than half of staging a 1M-row file. Nothing needs it: the import clears
 * its rows when it ends either way, a rerun clears them first, and the table is unlogged (emptied by a crash).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table custom_metadata_rows drop constraint if exists custom_metadata_rows_task_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from custom_metadata_rows s where not exists (select 1 from tasks t where t.id = s.task_id);
    alter table custom_metadata_rows add constraint custom_metadata_rows_task_id_fkey foreign key (task_id) references tasks (id) on delete cascade;
  `.execute(db);
}
