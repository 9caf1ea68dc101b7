import { type Kysely, sql } from 'kysely';

/**
 * Issue 29's issue counts and version-relative issues, stored with a version when it becomes a head
 * (src/modules/versions/issue-summaries.ts) instead of computed from all its media by every request. `version_issues`:
 * the version's images and frames, their median area, a count per issue type, and the histogram of their areas
 * (distinct areas ascending and how many media have each; null past a cap) that lets a later version find its median
 * from what its change added or removed. `version_issue_media`: the media of the version that are `exact_duplicates`
 * or `odd_size`, whole for each version (not inherited: few rows, copied in one statement at a change).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table version_issues (
      version_id uuid primary key references versions (id) on delete cascade,
      n_media int not null,
      median_area float8,
      counts jsonb not null,
      areas float8[],
      area_counts int[]
    );
    create table version_issue_media (
      version_id uuid not null,
      issue text not null,
      media_id uuid not null,
      primary key (version_id, issue, media_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table version_issue_media; drop table version_issues;`.execute(db);
}
