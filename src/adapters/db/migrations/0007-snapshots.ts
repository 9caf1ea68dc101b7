import { type Kysely, sql } from 'kysely';

/**
 * Snapshots: named, sealed versions. A dataset points at its current snapshot; a version may be shared
 * by several datasets (a clone's head is the snapshot's version), so versions outlive the dataset that
 * made them and are reclaimed by the version sweep once nothing references them. `released_at` marks
 * when a version stopped being a head, so the sweep leaves it to readers still on it for a grace period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table snapshots (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      version_id uuid not null references versions (id),
      name text not null,
      description text not null default '',
      reason text not null check (reason in ('manual', 'creation', 'clone')),
      n_images integer not null,
      n_videos integer not null,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      deleted_at timestamptz,
      training_model_id uuid,
      training_model_name text
    );
    create index snapshots_dataset_idx on snapshots (dataset_id, created_at desc) where deleted_at is null;
    create index snapshots_version_idx on snapshots (version_id);
    create index snapshots_deleted_idx on snapshots (deleted_at) where deleted_at is not null;

    -- A clone's task belongs to the new dataset; restores of its source look it up by source.
    create index tasks_active_clone_source_idx on tasks ((config ->> 'source_dataset_id'))
      where task_type = 'SNAPSHOT_CLONE' and status in ('INITIALIZING', 'RUNNING');

    alter table datasets add column current_snapshot_id uuid references snapshots (id) on delete set null;
    create index datasets_head_idx on datasets (head_version_id);

    alter table versions drop constraint versions_dataset_id_fkey;
    alter table versions alter column dataset_id drop not null;
    alter table versions add constraint versions_dataset_id_fkey foreign key (dataset_id) references datasets (id) on delete set null;
    alter table versions add column released_at timestamptz;

    -- A batch record does not hold its version: alerts read the batch's media, which the head still has.
    alter table media_batches drop constraint media_batches_version_id_fkey;
    alter table media_batches alter column version_id drop not null;
    alter table media_batches add constraint media_batches_version_id_fkey foreign key (version_id) references versions (id) on delete set null;

    -- Datasets indexed before snapshots existed get the creation snapshot they would have had.
    insert into snapshots (id, dataset_id, version_id, name, reason, n_images, n_videos, created_by, created_at)
    select s.id, d.id, d.head_version_id, d.display_name || '_snapshot_' || s.id, 'creation', d.n_images, d.n_videos, d.owner_id, d.created_at
    from datasets d cross join lateral (select gen_random_uuid() as id) s
    where d.head_version_id is not null and d.snapshots_enabled;
    update versions v set sealed = true from snapshots s where s.version_id = v.id;
    update datasets d set current_snapshot_id = s.id from snapshots s where s.dataset_id = d.id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table datasets drop column current_snapshot_id;
    drop index datasets_head_idx;
    drop table snapshots;
    alter table versions drop column released_at;
  `.execute(db);
}
