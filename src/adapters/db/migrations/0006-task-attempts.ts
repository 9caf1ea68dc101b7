import { type Kysely, sql } from 'kysely';

/**
 * Each run of a task gets the next attempt number; a run only writes while its number is the task's,
 * so a run that was aborted and then retried before it noticed can never write over the new run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks add column attempt integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks drop column attempt`.execute(db);
}
