import { sql } from 'kysely';
import type { Loupe } from '../../src/server.js';

/** The tables a dataset's media, versions, annotations and tasks live in. */
const TABLES = ['media', 'media_embeddings', 'version_rows', 'annotation_rows', 'field_rows', 'versions', 'snapshots', 'tasks', 'notifications', 'saved_views', 'version_indexes', 'cluster_summaries', 'version_summaries', 'media_list_totals', 'saved_view_counts', 'facet_summaries', 'facet_totals', 'media_list_anchors'];

export interface TableSize {
  table: string;
  rows: number;
  /** pg_total_relation_size: heap, TOAST and indexes. */
  totalBytes: number;
  /** pg_relation_size of each index. */
  indexes: Array<{ name: string; bytes: number }>;
}

/** Row estimates (reltuples after ANALYZE) and sizes of the main tables (and each version's field_sets_* table) and their indexes. */
export async function tableSizes(loupe: Loupe): Promise<TableSize[]> {
  const { db } = loupe.container.database;
  await sql.raw(`analyze ${TABLES.join(', ')}`).execute(db);
  const { rows } = await sql<{ table: string; rows: string; total: string; indexes: Array<{ name: string; bytes: number }> | null }>`
    select c.relname as table, greatest(c.reltuples, 0)::int8 as rows, pg_total_relation_size(c.oid) as total,
      (select json_agg(json_build_object('name', i.relname, 'bytes', pg_relation_size(i.oid)) order by i.relname)
         from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = c.oid) as indexes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and (c.relname = any(${TABLES}::text[]) or c.relname like 'field\\_sets\\_%')
    order by c.relname`.execute(db);
  return rows.map((r) => ({ table: r.table, rows: Number(r.rows), totalBytes: Number(r.total), indexes: r.indexes ?? [] }));
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Lines for the report: per table rows, total MB, and each index's MB. */
export function formatSizes(stage: string, sizes: TableSize[]): string[] {
  return [
    `${stage}:`,
    ...sizes.map((s) => `  ${s.table}: ${s.rows} rows, ${mb(s.totalBytes)} MB total; indexes ${s.indexes.map((i) => `${i.name} ${mb(i.bytes)}`).join(', ') || 'none'}`),
  ];
}
