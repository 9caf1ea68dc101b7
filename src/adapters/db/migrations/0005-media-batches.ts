import { type Kysely, sql } from 'kysely';

/**
 * One row per media batch whose processing committed (add media, any source): the durable record of the
 * "media batch processed" event, written in the commit transaction, so a consumer that was down (alerts)
 * still finds it, and a batch is recorded once even when its task is retried.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table media_batches (
      id uuid primary key,
      dataset_id uuid not null references datasets (id) on delete cascade,
      trans_id integer not null,
      version_id uuid not null references versions (id) on delete cascade,
      media_count integer not null,
      processed_at timestamptz not null default now(),
      alerts_evaluated_at timestamptz
    );
    create index media_batches_pending_idx on media_batches (processed_at) where alerts_evaluated_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table media_batches`.execute(db);
}
