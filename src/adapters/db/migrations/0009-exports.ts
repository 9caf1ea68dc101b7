import { type Kysely, sql } from 'kysely';

/**
 * Export jobs: what to export (the head version at the start, so the archive is one consistent picture),
 * their state for export_status, and the finished archive's blob until it expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table exports (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      version_id uuid references versions (id) on delete set null,
      created_by uuid not null references users (id),
      file_name text not null,
      export_format text not null,
      include_images boolean not null,
      selection jsonb,
      status text not null check (status in ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'REJECTED')),
      progress integer not null default 0,
      result_message text,
      item_count integer,
      blob_hash text,
      size bigint,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      expires_at timestamptz
    );
    create index exports_dataset_idx on exports (dataset_id, created_at desc);
    create index exports_version_idx on exports (version_id) where status in ('PENDING', 'RUNNING');
    create index exports_expiry_idx on exports (expires_at) where expires_at is not null;
    create index exports_blob_idx on exports (blob_hash) where blob_hash is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table exports`.execute(db);
}
