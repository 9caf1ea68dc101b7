import { type Kysely, sql } from 'kysely';

/**
 * A task's per-item stage (the media stage of creation and add media, enrichment) splits its pending items into
 * chunks that any worker may claim (src/jobs/task-chunks.ts): a chunk is a range of item ids in id order; a claim is
 * a claimer's name and a heartbeat, and one whose heartbeat stopped (its worker died) is claimed again by another.
 * Per task run (`attempt`): a rerun plans its own chunks of what is still pending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table task_chunks (
      task_id uuid not null references tasks (id) on delete cascade,
      attempt integer not null,
      chunk integer not null,
      first_id uuid not null,
      last_id uuid not null,
      claimed_by text,
      heartbeat_at timestamptz,
      done_at timestamptz,
      error text,
      primary key (task_id, attempt, chunk)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table task_chunks`.execute(db);
}
