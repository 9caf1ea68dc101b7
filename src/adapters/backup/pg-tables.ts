import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { readVerified, writeHashed } from './hashed-files.js';
import type { SequenceValue, TableDump } from './manifest.js';

/**
 * Tables of the schema that a backup leaves out: the migrations' own bookkeeping (a restore runs the migrations
 * again) and the liveness of the processes running now (a restored instance has none of them running).
 */
const NOT_BACKED_UP = new Set(['public.loupe_migrations', 'public.loupe_migrations_lock', 'public.nodes', 'public.worker_instances']);

export interface TableInfo {
  table: string;
  columns: string[];
  partition?: { parent: string; bound: string };
}

/**
 * Loupe's tables in `public` (import staging tables are left out: an import resumed after a restore stages again),
 * partitions included (a partitioned table holds no rows of its own), with their stored columns in order.
 */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ table: string; columns: string[]; parent: string | null; bound: string | null }>(`
    select format('%I.%I', n.nspname, c.relname) as table,
      array(select a.attname::text from pg_attribute a
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by a.attnum) as columns,
      case when c.relispartition then (select format('%I.%I', pn.nspname, p.relname) from pg_inherits i
        join pg_class p on p.oid = i.inhparent join pg_namespace pn on pn.oid = p.relnamespace where i.inhrelid = c.oid) end as parent,
      case when c.relispartition then pg_get_expr(c.relpartbound, c.oid) end as bound
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relpersistence = 'p'
    order by c.relispartition, c.relname`);
  return rows
    .filter((r) => !NOT_BACKED_UP.has(r.table))
    .map((r) => ({ table: r.table, columns: r.columns, ...(r.parent && r.bound ? { partition: { parent: r.parent, bound: r.bound } } : {}) }));
}

/** Holds every table against DROP (the sweep drops field sets) until the dump's transaction ends, as pg_dump does. */
export async function lockTables(client: pg.ClientBase, tables: TableInfo[]): Promise<void> {
  if (tables.length > 0) await client.query(`lock table only ${tables.map((t) => t.table).join(', ')} in access share mode`);
}

export async function sequenceValues(client: pg.ClientBase): Promise<SequenceValue[]> {
  const { rows } = await client.query<{ sequence: string }>(`select format('%I.%I', schemaname, sequencename) as sequence from pg_sequences
    where schemaname = 'public' order by sequencename`);
  const values: SequenceValue[] = [];
  for (const { sequence } of rows) {
    const { rows: [row] } = await client.query<{ value: string; is_called: boolean }>(`select last_value::text as value, is_called from ${sequence}`);
    values.push({ sequence, value: row!.value, is_called: row!.is_called });
  }
  return values;
}

const columnList = (columns: string[]) => columns.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ');

/** COPY's text format: portable between PostgreSQL versions, exact for every type Loupe stores (floats included). */
export async function dumpTable(client: pg.ClientBase, table: TableInfo, file: string): Promise<{ rows: number; bytes: number; sha256: string }> {
  return dumpQuery(client, `copy ${table.table} (${columnList(table.columns)}) to stdout`, file);
}

export async function dumpQuery(client: pg.ClientBase, copy: string, file: string): Promise<{ rows: number; bytes: number; sha256: string }> {
  const stream = client.query(copyTo(copy));
  const written = await writeHashed(stream, file);
  return { rows: Number(stream.rowCount), ...written };
}

/** Loads a table's file, checked against its hash and row count on the way in. */
export async function loadTable(client: pg.ClientBase, dump: Pick<TableDump, 'table' | 'columns' | 'rows' | 'bytes' | 'sha256'>, file: string): Promise<void> {
  const sink = client.query(copyFrom(`copy ${dump.table} (${columnList(dump.columns)}) from stdin`));
  await readVerified(file, dump, sink);
  if (Number(sink.rowCount) !== dump.rows) throw new Error(`${dump.table}: ${sink.rowCount} rows loaded, the backup recorded ${dump.rows}`);
}

/** Makes a partition the application had made (its table is not a migration's), empty, under its parent. */
export async function createPartition(client: pg.ClientBase, table: string, partition: { parent: string; bound: string }): Promise<void> {
  await client.query(`create table if not exists ${table} partition of ${partition.parent} ${partition.bound}`);
}

export async function setSequences(client: pg.ClientBase, values: SequenceValue[]): Promise<void> {
  for (const s of values) await client.query(`select setval($1::regclass, $2::bigint, $3)`, [s.sequence, s.value, s.is_called]);
}

/**
 * Every foreign key checked over the loaded rows (a restore loads with triggers off, so PostgreSQL checked none):
 * the first violation found, as `child -> parent`, or null. A dump from one snapshot has none.
 */
export async function firstForeignKeyViolation(client: pg.ClientBase): Promise<string | null> {
  const { rows } = await client.query<{ name: string; child: string; parent: string; child_cols: string[]; parent_cols: string[] }>(`
    select c.conname as name, c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
      array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as child_cols,
      array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as parent_cols
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where c.contype = 'f' and n.nspname = 'public' and c.conparentid = 0`);
  for (const fk of rows) {
    const quote = (c: string) => `"${c.replaceAll('"', '""')}"`;
    const present = fk.child_cols.map((c) => `x.${quote(c)} is not null`).join(' and ');
    const join = fk.child_cols.map((c, i) => `p.${quote(fk.parent_cols[i]!)} = x.${quote(c)}`).join(' and ');
    const { rowCount } = await client.query(`select 1 from ${fk.child} x where ${present} and not exists (select 1 from ${fk.parent} p where ${join}) limit 1`);
    if (rowCount) return `${fk.child} -> ${fk.parent} (${fk.name})`;
  }
  return null;
}
