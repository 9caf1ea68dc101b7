import { type Kysely, sql } from 'kysely';

/**
 * Custom metadata: each version names its fields and their types (field → 'string' | 'number' | 'boolean' |
 * 'datetime' | 'string_list'), copied by every fork, so a restore brings the field list back with the values.
 * An import streams its rows into an unlogged staging table first (validated, keyed by task) and applies
 * them set-based in its commit; the rows are dropped when the task ends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table versions add column field_types jsonb not null default '{}';

    create unlogged table custom_metadata_rows (
      task_id uuid not null references tasks (id) on delete cascade,
      line int not null,
      key text not null,
      fields jsonb not null,
      primary key (task_id, line)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table custom_metadata_rows;
    alter table versions drop column field_types;
  `.execute(db);
}
