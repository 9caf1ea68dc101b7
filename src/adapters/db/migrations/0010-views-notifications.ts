import { type Kysely, sql } from 'kysely';

/**
 * Saved views (a stored Explore query on a dataset, with the users its alerts also go to) and
 * notifications. `seq` orders notifications in commit order (writers take one advisory lock), so it can
 * be the stream's event id: a reconnecting client asks for everything after the last one it saw. The
 * unique (entity_id, batch_id, user_id) makes a batch alert a user once per view, whatever reruns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table saved_views (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      name text not null,
      query jsonb not null,
      created_by uuid not null references users (id) on delete cascade,
      monitoring_enabled boolean not null default false,
      alerting_enabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index saved_views_dataset_idx on saved_views (dataset_id, created_at);

    create table saved_view_recipients (
      view_id uuid not null references saved_views (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      primary key (view_id, user_id)
    );

    create table notifications (
      id uuid primary key default gen_random_uuid(),
      seq bigint generated always as identity unique,
      user_id uuid not null references users (id) on delete cascade,
      dataset_id uuid references datasets (id) on delete cascade,
      entity_type text not null,
      entity_id uuid not null,
      batch_id uuid,
      title text not null,
      message text not null,
      metadata jsonb not null,
      created_at timestamptz not null default now(),
      read_at timestamptz,
      unique (entity_id, batch_id, user_id)
    );
    create index notifications_user_idx on notifications (user_id, seq desc);
    create index notifications_unread_idx on notifications (user_id, dataset_id) where read_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table notifications; drop table saved_view_recipients; drop table saved_views`.execute(db);
}
