import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null,
      created_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table api_keys (
      api_key text primary key,
      user_id uuid not null references users (id) on delete cascade,
      secret_ciphertext text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index api_keys_user_idx on api_keys (user_id);

    create table sessions (
      id_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      api_key text not null references api_keys (api_key) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );

    create table datasets (
      id uuid primary key default gen_random_uuid(),
      display_name text not null,
      description text not null default '',
      owner_id uuid not null references users (id),
      status_new text not null check (status_new in ('READY', 'READ ONLY', 'PARTIAL INDEX', 'INDEXING', 'ERROR')),
      progress integer not null default 0,
      n_images integer not null default 0,
      n_videos integer not null default 0,
      n_objects integer not null default 0,
      fatal_error_msg text,
      source_dataset_id uuid references datasets (id) on delete set null,
      snapshots_enabled boolean not null default true,
      created_at timestamptz not null default now()
    );
    create index datasets_owner_idx on datasets (owner_id, created_at desc);

    create table dataset_access (
      dataset_id uuid not null references datasets (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('viewer', 'editor')),
      granted_by uuid not null references users (id),
      granted_at timestamptz not null default now(),
      primary key (dataset_id, user_id)
    );
    create index dataset_access_user_idx on dataset_access (user_id, dataset_id);

    create table tasks (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      task_type text not null,
      status text not null check (status in ('INITIALIZING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED')),
      status_message text not null default '',
      progress_percentage integer check (progress_percentage between 0 and 100),
      error_message text,
      created_by uuid not null references users (id),
      config jsonb not null default '{}',
      phase text not null default 'work' check (phase in ('work', 'commit')),
      start_time timestamptz not null default now(),
      end_time timestamptz,
      worker_instance text,
      job_locked_by text
    );
    create index tasks_start_time_idx on tasks (start_time desc, id desc);
    create index tasks_dataset_idx on tasks (dataset_id, start_time desc);
    create index tasks_active_idx on tasks (status) where status in ('INITIALIZING', 'RUNNING');

    create table worker_instances (
      id text primary key,
      started_at timestamptz not null default now(),
      heartbeat_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table worker_instances, tasks, dataset_access, datasets, sessions, api_keys, users`.execute(db);
}
