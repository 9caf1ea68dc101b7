import { type Kysely, sql } from 'kysely';

/**
 * The media stage of a task (creation, add media) splits its pending upload files into chunks that any worker may
 * claim (src/jobs/media-chunks.ts): a claim is a claimer's name and a heartbeat; one whose heartbeat stopped (its
 * worker died) is claimed again by another. Per task run (`attempt`): a rerun plans its own chunks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table media_chunks (
      task_id uuid not null references tasks (id) on delete cascade,
      attempt integer not null,
      chunk integer not null,
      file_ids uuid[] not null,
      claimed_by text,
      heartbeat_at timestamptz,
      done_at timestamptz,
      error text,
      primary key (task_id, attempt, chunk)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table media_chunks`.execute(db);
}
