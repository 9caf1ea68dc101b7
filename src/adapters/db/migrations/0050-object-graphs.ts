import { type Kysely, sql } from 'kysely';

/**
 * The k-NN graph of a detection's objects, built anyway when they are clustered, kept as a blob (graph-file.ts) so label
 * errors on objects read each object's neighbours instead of building the graph again on every run (minutes at a
 * million objects). `ordinal` is an object's position in its task's graph; the graph goes when its last object does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table object_embeddings add column ordinal int;
    create index object_embeddings_task on object_embeddings (task_id);
    create table object_graphs (
      task_id uuid primary key,
      item_count int not null,
      graph_blob_hash text not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table object_graphs; drop index object_embeddings_task; alter table object_embeddings drop column ordinal`.execute(db);
}
