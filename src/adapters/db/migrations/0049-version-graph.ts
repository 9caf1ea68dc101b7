import { type Kysely, sql } from 'kysely';

/**
 * The k-NN graph a full index builds, kept as a blob beside the search index (src/adapters/vectors/graph-file.ts):
 * label errors read each media's neighbours from it instead of searching the HNSW index again, whose narrow-beam
 * recall falls to a third above 200k media. Null for indexes made before, and where none was written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table version_indexes add column graph_blob_hash text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table version_indexes drop column graph_blob_hash`.execute(db);
}
