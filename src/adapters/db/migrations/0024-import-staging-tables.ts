import { type Kysely, sql } from 'kysely';

/**
 * Each import stages its rows in a table of its own in the import_staging schema, named by its task id and made
 * like import_staging.template, and dropped when the import ends: deleting a million rows from one shared table
 * took 0.4–0.6 s, inside the commit or, moved after it, beside whatever came next; and reading a task's rows
 * no longer filters a shared table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create schema import_staging;
    create unlogged table import_staging.template (line int not null, key text not null, fields jsonb not null);
    drop table custom_metadata_rows;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop schema import_staging cascade;
    create unlogged table custom_metadata_rows (task_id uuid not null, line int not null, key text not null, fields jsonb not null);
    create index custom_metadata_rows_task_brin on custom_metadata_rows using brin (task_id);
  `.execute(db);
}
