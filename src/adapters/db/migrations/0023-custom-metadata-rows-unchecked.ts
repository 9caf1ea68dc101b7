import { type Kysely, sql } from 'kysely';

/**
 * Staging is one COPY per import, and its per-row upkeep was most of it: the foreign key to the task, checked row
 * by row and locking the task row the import reports progress on (8.4 s of a 1M-row COPY; 20 s in the job), and
 * the primary key's btree (about 1 s). Neither was needed: an import clears its rows when it ends either way and a
 * rerun clears them first, the table is unlogged (a crash empties it), and one COPY has no line twice. A BRIN
 * index still finds a task's rows, which lie together, at almost no cost per row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table custom_metadata_rows drop constraint if exists custom_metadata_rows_task_id_fkey;
    alter table custom_metadata_rows drop constraint if exists custom_metadata_rows_pkey;
    create index custom_metadata_rows_task_brin on custom_metadata_rows using brin (task_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index custom_metadata_rows_task_brin;
    delete from custom_metadata_rows s where not exists (select 1 from tasks t where t.id = s.task_id);
    alter table custom_metadata_rows add primary key (task_id, line);
    alter table custom_metadata_rows add constraint custom_metadata_rows_task_id_fkey foreign key (task_id) references tasks (id) on delete cascade;
  `.execute(db);
}
