import { type Kysely, sql } from 'kysely';

/**
 * Uploads, immutable media facts, and versions: a dataset's membership lives in versions and the
 * dataset points at its head, so a change is written beside the head and swapped in when it commits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table upload_transactions (
      dataset_id uuid not null references datasets (id) on delete cascade,
      trans_id integer not null,
      status text not null default 'OPEN' check (status in ('OPEN', 'PROCESSING', 'PROCESSED')),
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      primary key (dataset_id, trans_id)
    );

    create table media (
      id uuid primary key default gen_random_uuid(),
      blob_hash text not null,
      media_type text not null check (media_type in ('IMAGE', 'VIDEO', 'VIDEO_FRAME')),
      parent_media_id uuid references media (id) on delete cascade,
      frame_timestamp double precision,
      file_name text not null,
      format text not null,
      mime text not null,
      size bigint not null,
      width integer,
      height integer,
      duration_seconds double precision,
      exif jsonb,
      thumb_hash text,
      preview_hash text,
      phash text,
      blur double precision,
      brightness double precision,
      quality_flags text[] not null default '{}',
      created_at timestamptz not null default now()
    );
    create index media_parent_idx on media (parent_media_id) where parent_media_id is not null;
    create index media_blob_idx on media (blob_hash);

    create table upload_files (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null,
      trans_id integer not null,
      file_name text not null,
      blob_hash text not null,
      size bigint not null,
      kind text not null check (kind in ('image', 'video')),
      format text not null,
      mime text not null,
      media_id uuid references media (id) on delete set null,
      error text,
      created_at timestamptz not null default now(),
      foreign key (dataset_id, trans_id) references upload_transactions (dataset_id, trans_id) on delete cascade,
      unique (dataset_id, trans_id, file_name, blob_hash)
    );

    create table versions (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      parent_id uuid references versions (id) on delete set null,
      sealed boolean not null default false,
      created_at timestamptz not null default now()
    );

    create table version_media (
      version_id uuid not null references versions (id) on delete cascade,
      media_id uuid not null references media (id),
      primary key (version_id, media_id)
    );
    create index version_media_media_idx on version_media (media_id);

    alter table datasets add column head_version_id uuid references versions (id) on delete set null;

    create index media_thumb_idx on media (thumb_hash);
    create index media_preview_idx on media (preview_hash);
    create index upload_files_blob_idx on upload_files (blob_hash);
    create index upload_files_media_idx on upload_files (media_id);

    -- Blobs that may have lost their last reference; a sweep deletes those still unreferenced after a grace period.
    create table blob_gc_candidates (
      hash text primary key,
      queued_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table datasets drop column head_version_id;
    drop table blob_gc_candidates, version_media, versions, upload_files, media, upload_transactions;
  `.execute(db);
}
