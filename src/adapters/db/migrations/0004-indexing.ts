import { type Kysely, sql } from 'kysely';

/**
 * Indexing: one embedding per media and model (media facts stay immutable), the per-version index
 * (clusters, scores, the saved ANN index), the dataset's embedding config, image-similarity anchors,
 * and full-text search over the media's own text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table datasets add column embedding_config jsonb;

    create table media_embeddings (
      media_id uuid not null references media (id) on delete cascade,
      model text not null,
      vector bytea not null,
      primary key (media_id, model)
    );

    -- A change is prepared in a version tied to its task, so a rerun after a crash resumes it.
    alter table versions add column task_id uuid;
    create unique index versions_task_idx on versions (task_id) where task_id is not null;

    alter table version_media
      add column ordinal integer,
      add column cluster_l0 uuid,
      add column cluster_l1 uuid,
      add column cluster_l2 uuid,
      add column cluster_l3 uuid,
      add column cluster_l4 uuid,
      add column uniqueness_score real,
      add column nn_similarity real,
      add column is_outlier boolean not null default false,
      add column duplicate_group uuid;
    create index version_media_l0_idx on version_media (version_id, cluster_l0);
    create index version_media_l1_idx on version_media (version_id, cluster_l1);
    create index version_media_l2_idx on version_media (version_id, cluster_l2);
    create index version_media_l3_idx on version_media (version_id, cluster_l3);
    create index version_media_l4_idx on version_media (version_id, cluster_l4);
    create unique index version_media_ordinal_idx on version_media (version_id, ordinal) where ordinal is not null;
    create index version_media_dup_idx on version_media (version_id, duplicate_group) where duplicate_group is not null;

    create table version_indexes (
      version_id uuid primary key references versions (id) on delete cascade,
      model text not null,
      dimensions integer not null,
      item_count integer not null,
      mean bytea not null,
      ann_blob_hash text,
      params jsonb not null,
      created_at timestamptz not null default now()
    );

    create table similarity_anchors (
      id uuid primary key default gen_random_uuid(),
      dataset_id uuid not null references datasets (id) on delete cascade,
      model text not null,
      vector bytea not null,
      file_name text not null,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now()
    );
    create index similarity_anchors_created_idx on similarity_anchors (created_at);

    alter table media add column search_text tsvector generated always as
      (to_tsvector('english', regexp_replace(file_name, '[_./#-]+', ' ', 'g'))) stored;
    create index media_search_idx on media using gin (search_text);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table media drop column search_text;
    drop table similarity_anchors, version_indexes, media_embeddings;
    alter table version_media drop column ordinal, drop column cluster_l0, drop column cluster_l1, drop column cluster_l2,
      drop column cluster_l3, drop column cluster_l4, drop column uniqueness_score, drop column nn_similarity,
      drop column is_outlier, drop column duplicate_group;
    alter table versions drop column task_id;
    alter table datasets drop column embedding_config;
  `.execute(db);
}
