import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './migrations/0001-platform.js';
import * as m0002 from './migrations/0002-task-counts.js';
import * as m0003 from './migrations/0003-media.js';
import * as m0004 from './migrations/0004-indexing.js';
import * as m0005 from './migrations/0005-media-batches.js';
import * as m0006 from './migrations/0006-task-attempts.js';
import * as m0007 from './migrations/0007-snapshots.js';
import * as m0008 from './migrations/0008-version-media-indexes.js';
import * as m0009 from './migrations/0009-exports.js';
import * as m0010 from './migrations/0010-views-notifications.js';
import * as m0011 from './migrations/0011-version-deltas.js';
import * as m0012 from './migrations/0012-annotations.js';
import * as m0013 from './migrations/0013-custom-metadata.js';
import * as m0020 from './migrations/0020-enrichment.js';
import * as m0021 from './migrations/0021-version-rows-without-fk.js';
import * as m0022 from './migrations/0022-annotation-rows.js';
import * as m0023 from './migrations/0023-custom-metadata-rows-unchecked.js';
import * as m0024 from './migrations/0024-import-staging-tables.js';
import * as m0025 from './migrations/0025-field-sets.js';
import * as m0031 from './migrations/0031-cluster-summaries.js';
import * as m0032 from './migrations/0032-filter-indexes.js';
import * as m0034 from './migrations/0034-filtered-explore-indexes.js';
import * as m0035 from './migrations/0035-uniqueness-index-partial.js';
import * as m0036 from './migrations/0036-facet-summaries.js';
import * as m0037 from './migrations/0037-media-list-anchors.js';
import * as m0038 from './migrations/0038-field-set-values-index.js';
import * as m0039 from './migrations/0039-nodes.js';
import * as m0040 from './migrations/0040-task-chunks.js';
import * as m0041 from './migrations/0041-curation-issues.js';
import * as m0043 from './migrations/0043-label-errors.js';
import * as m0044 from './migrations/0044-leakage.js';
import * as m0045 from './migrations/0045-embedding-map.js';
import * as m0047 from './migrations/0047-version-issues.js';
import * as m0048 from './migrations/0048-object-label-errors.js';
import * as m0049 from './migrations/0049-version-graph.js';
import * as m0050 from './migrations/0050-object-graphs.js';
import * as m0051 from './migrations/0051-object-flag-indexes.js';

/** Numbered migrations, listed here so they work the same from source and from a build. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-platform': m0001,
  '0002-task-counts': m0002,
  '0003-media': m0003,
  '0004-indexing': m0004,
  '0005-media-batches': m0005,
  '0006-task-attempts': m0006,
  '0007-snapshots': m0007,
  '0008-version-media-indexes': m0008,
  '0009-exports': m0009,
  '0010-views-notifications': m0010,
  '0011-version-deltas': m0011,
  '0012-annotations': m0012,
  '0013-custom-metadata': m0013,
  '0020-enrichment': m0020,
  '0021-version-rows-without-fk': m0021,
  '0022-annotation-rows': m0022,
  '0023-custom-metadata-rows-unchecked': m0023,
  '0024-import-staging-tables': m0024,
  '0025-field-sets': m0025,
  '0031-cluster-summaries': m0031,
  '0032-filter-indexes': m0032,
  '0034-filtered-explore-indexes': m0034,
  '0035-uniqueness-index-partial': m0035,
  '0036-facet-summaries': m0036,
  '0037-media-list-anchors': m0037,
  '0038-field-set-values-index': m0038,
  '0039-nodes': m0039,
  '0040-task-chunks': m0040,
  '0041-curation-issues': m0041,
  '0043-label-errors': m0043,
  '0044-leakage': m0044,
  '0045-embedding-map': m0045,
  '0047-version-issues': m0047,
  '0048-object-label-errors': m0048,
  '0049-version-graph': m0049,
  '0050-object-graphs': m0050,
  '0051-object-flag-indexes': m0051,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

const migrator = (db: Kysely<any>) => new Migrator({ db, provider, migrationTableName: 'loupe_migrations', migrationLockTableName: 'loupe_migrations_lock' });

/** Every migration this code knows, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Migrates an empty or older database up to `name` and no further (a restore loads a dump made at that schema). */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<string[]> {
  const { error, results } = await migrator(db).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
