import { type Kysely, sql } from 'kysely';

/**
 * Every server process on the database (API, worker or both) says where it keeps blobs and which secret key it holds
 * (an HMAC of a fixed text under the key, never the key), with a heartbeat: a node that starts finds the live ones
 * and refuses to run beside one it would silently disagree with (ADR 0035). worker_instances stays the workers'
 * liveness for task recovery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table nodes (
      id text primary key,
      role text not null,
      host text not null,
      data_dir text not null,
      blob_store text not null,
      key_id text not null,
      key_shared boolean not null,
      started_at timestamptz not null default now(),
      heartbeat_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table nodes`.execute(db);
}
