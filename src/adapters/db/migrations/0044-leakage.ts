import { type Kysely, sql } from 'kysely';

/**
 * Issue 29's leakage runs (docs/curation.md, Leakage): one row per LEAKAGE task with what it compared and its counts
 * per side, and the near-duplicate pairs it found across the sides, read a page at a time by similarity. Pairs name
 * media without a foreign key: a media item gone since (its dataset deleted) drops out of the pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table leakage_runs (
      task_id uuid primary key references tasks (id) on delete cascade,
      dataset_id uuid not null references datasets (id) on delete cascade,
      other_dataset_id uuid references datasets (id) on delete set null,
      split_field text,
      threshold real not null,
      tag text,
      comparisons jsonb not null,
      created_at timestamptz not null default now()
    );
    create table leakage_pairs (
      task_id uuid not null references tasks (id) on delete cascade,
      comparison int2 not null,
      media_a uuid not null,
      media_b uuid not null,
      similarity real not null,
      primary key (task_id, comparison, media_a, media_b)
    );
    create index leakage_pairs_page_idx on leakage_pairs (task_id, similarity desc, comparison, media_a, media_b);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table leakage_pairs; drop table leakage_runs;`.execute(db);
}
