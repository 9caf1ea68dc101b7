import { type RawBuilder, sql } from 'kysely';
import { type Db, assumeCachedPages, inParallel } from '../../adapters/db/database.js';

/**
 * A kind of per-media annotation kept apart from the wide version rows, in narrow rows of its own held only
 * for annotated media: tags and labels (edits) or custom fields (imports). Each is copied on write alone,
 * so an edit never copies imported fields and an import never copies tags.
 */
export interface AnnotationLayer {
  rows: 'annotation_rows' | 'field_rows';
  bases: 'annotation_bases' | 'field_bases';
  /** The layer's own rows and those it inherits. */
  view: 'version_annotations' | 'version_fields';
  /** Each column and its value where a media has no row. */
  columns: Record<string, string>;
  /**
   * Where a version that holds the layer whole and more than FULL_SET_FLOOR rows of it keeps them, when a change
   * writes it: a table of its own, filled and indexed in the change's transaction, then attached to this
   * partitioned table as the partition for its id (migration 0025). Deltas always go to `rows`.
   */
  sets?: 'field_sets';
}

export const TAGS_AND_LABELS: AnnotationLayer = {
  rows: 'annotation_rows',
  bases: 'annotation_bases',
  view: 'version_annotations',
  columns: { tags: `'{}'::text[]`, label: 'null::text' },
};

export const CUSTOM_FIELDS: AnnotationLayer = {
  rows: 'field_rows',
  bases: 'field_bases',
  view: 'version_fields',
  columns: { custom_fields: `'{}'::jsonb` },
  sets: 'field_sets',
};

const LAYERS = [TAGS_AND_LABELS, CUSTOM_FIELDS];

/**
 * The layer's columns a change sets, each an expression over `a` (the media's values in the version forked
 * from; the defaults where it has none) and `p` (the picked row).
 */
export type AnnotationChanges = Record<string, RawBuilder<unknown>>;

/**
 * A delta that would own more than this many rows, and at least half its base's, is written whole instead: the
 * same rule for a layer here and for version rows (VersionsRepo.fork). The default of config.fullSetFloor
 * (VERSION_FULL_SET_FLOOR), which each repository passes down; tests lower it to take the same path on small seeds.
 */
export const FULL_SET_FLOOR = 50_000;

const columnList = (layer: AnnotationLayer, alias?: string) =>
  sql.raw(['media_id', ...Object.keys(layer.columns)].map((c) => (alias ? `${alias}.${c}` : c)).join(', '));

async function baseOf(db: Db, layer: AnnotationLayer, versionId: string): Promise<string | null> {
  const { rows } = await sql<{ base_id: string }>`select base_id from ${sql.table(layer.bases)} where version_id = ${versionId}::uuid`.execute(db);
  return rows[0]?.base_id ?? null;
}

/**
 * The rows of the layer a version holds itself, wherever it keeps them, as a subquery of version_id and the columns;
 * `inline` writes the id into the text (a COPY takes no parameters).
 */
function heldBy(layer: AnnotationLayer, versionId: string, inline = false): RawBuilder<unknown> {
  const id = inline ? sql`${sql.lit(versionId)}::uuid` : sql`${versionId}::uuid`;
  const from = (table: string) => sql`select version_id, ${columnList(layer)} from ${sql.table(table)} where version_id = ${id}`;
  return layer.sets ? sql`(${from(layer.rows)} union all ${from(layer.sets)})` : sql`(${from(layer.rows)})`;
}

/**
 * The layer's rows a version reads, as a subquery of media_id and the columns: its own, and its base's it does not
 * hold. The base is looked up first, so every arm names its version and the planner estimates each from its
 * statistics; through the view, the base's arm was a join it guessed at (rows=5000 for a million). `inline`: as heldBy.
 */
export async function layerRows(db: Db, layer: AnnotationLayer, versionId: string, inline = false): Promise<RawBuilder<unknown>> {
  const own = sql`select ${columnList(layer)} from ${heldBy(layer, versionId, inline)} o`;
  const base = await baseOf(db, layer, versionId);
  if (!base) return sql`(${own})`;
  return sql`(${own} union all select ${columnList(layer, 'b')} from ${heldBy(layer, base, inline)} b
    where not exists (select 1 from ${heldBy(layer, versionId, inline)} h where h.media_id = b.media_id))`;
}

/** How many rows of the layer the version holds itself, counting no further than `cap`. */
async function ownRows(db: Db, layer: AnnotationLayer, versionId: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${heldBy(layer, versionId)} r limit ${cap}) s`.execute(db);
  return rows[0]!.n;
}

/**
 * How a version forked from `fromId` keeps the layer once a change has written `written` rows of it: over a base
 * (`fromId`'s, or `fromId` itself), or whole when it would then own more than FULL_SET_FLOOR rows and half its
 * base's, so no delta ever owns as much as its base and the forks after it copy nothing; `alone` when `fromId`
 * has none of the layer, so the written rows are all of it.
 */
async function layout(trx: Db, layer: AnnotationLayer, fromId: string, written: number, floor: number) {
  const base = await baseOf(trx, layer, fromId);
  // Counts stop where the answer is known: a full version's rows are many, a delta's are fewer than half its base's.
  const fromOwn = await ownRows(trx, layer, fromId, base ? Number.MAX_SAFE_INTEGER : 2 * written + 1);
  const alone = !base && fromOwn === 0;
  const own = written + (base ? fromOwn : 0);
  const whole = !alone && own > floor && own * 2 >= (base ? await ownRows(trx, layer, base, 2 * own + 1) : fromOwn);
  return { base, fromOwn, alone, whole };
}

/**
 * Completes the layer of `toId`, forked from `fromId` and already holding the `written` rows of a change (none
 * when it only carries), as layout() says: it inherits the rows it does not hold from a sealed base, copying
 * fromId's own rows when fromId is a delta; or it gets every row of fromId it does not hold.
 */
async function carry(trx: Db, layer: AnnotationLayer, fromId: string, toId: string, written: number, floor: number): Promise<void> {
  const { base, fromOwn, alone, whole } = await layout(trx, layer, fromId, written, floor);
  if (alone) return;
  if (whole && written === 0 && layer.sets) {
    await writeSet(trx, layer, toId, null, fromId);
    return;
  }
  const rows = sql.table(layer.rows);
  const notHeld = written > 0 ? sql`and not exists (select 1 from ${rows} h where h.version_id = ${toId}::uuid and h.media_id = r.media_id)` : sql``;
  if (whole) {
    await sql`insert into ${rows} (version_id, ${columnList(layer)}) select ${toId}::uuid, ${columnList(layer, 'r')}
      from ${sql.table(layer.view)} r where r.version_id = ${fromId}::uuid ${notHeld}`.execute(trx);
    return;
  }
  const inherited = base ?? fromId;
  // A base is never written again: the version it belongs to is sealed (every later change forks).
  await trx.updateTable('versions').set({ sealed: true }).where('id', '=', inherited).execute();
  await sql`insert into ${sql.table(layer.bases)} (version_id, base_id) values (${toId}::uuid, ${inherited}::uuid)`.execute(trx);
  // Without statistics the planner reads a delta's inherited rows by index probes (as for version_bases).
  await sql`analyze ${sql.table(layer.bases)}`.execute(trx);
  if (base && fromOwn > 0) {
    await sql`insert into ${rows} (version_id, ${columnList(layer)}) select ${toId}::uuid, ${columnList(layer, 'r')}
      from ${rows} r where r.version_id = ${fromId}::uuid ${notHeld}`.execute(trx);
  }
}

/** How the name of each of the layer's set tables begins; the version's id follows, without its dashes. */
export const setTablePrefix = (layer: AnnotationLayer): string => `${layer.sets}_`;

/** A set's table: one per version, in the public schema beside the table it is a partition of. */
const setTableName = (layer: AnnotationLayer, versionId: string) => `${setTablePrefix(layer)}${versionId.replaceAll('-', '')}`;

/**
 * Writes the layer of `toId` whole into a set of its own (AnnotationLayer.sets): the rows `change` (a query of
 * version_id and the columns) selects, then every row of `rest` (the version forked from, unless it has none of
 * the layer) it did not, the key built once they are in, and the table attached. The table is made by its first
 * query (CREATE TABLE AS, which runs it in parallel and writes through a small ring of buffers, where INSERT ...
 * SELECT runs in one process and dirties shared buffers row by row: 1M rows 1.2–1.5 s against 2.0–2.1 s). Made in
 * this transaction, it needs no WAL where wal_level is minimal (the embedded database). Its check, verified with
 * its not-null columns in one pass before the key is built, spares the attach a scan of its own. Returns how
 * many rows `change` wrote.
 */
async function writeSet(trx: Db, layer: AnnotationLayer, toId: string, change: RawBuilder<unknown> | null, rest: string | null): Promise<number> {
  const name = setTableName(layer, toId);
  const table = sql.table(name);
  const restRows = (notHeld: RawBuilder<unknown>) => sql`select ${toId}::uuid, ${columnList(layer, 'r')}
    from ${sql.table(layer.view)} r where r.version_id = ${rest}::uuid ${notHeld}`;
  await inParallel(trx, () => sql`create table ${table} (version_id, ${columnList(layer)}) as ${change ?? restRows(sql``)}`.execute(trx));
  // CREATE TABLE AS tells no row count; the transaction's own statistics do.
  const written = change ? (await sql<{ n: number }>`select pg_stat_get_xact_tuples_inserted(${name}::regclass)::int as n`.execute(trx)).rows[0]!.n : 0;
  if (change && rest) await sql`insert into ${table} ${restRows(sql`and not exists (select 1 from ${table} h where h.media_id = r.media_id)`)}`.execute(trx);
  const notNull = ['version_id', ...Object.keys(layer.columns), 'media_id'].map((c) => sql`alter ${sql.ref(c)} set not null`);
  await sql`alter table ${table} ${sql.join(notNull)}, add check (version_id = ${sql.lit(toId)}::uuid), add primary key (media_id, version_id)`.execute(trx);
  await sql`alter table ${sql.table(layer.sets!)} attach partition ${table} for values in (${sql.lit(toId)}::uuid)`.execute(trx);
  return written;
}

/**
 * Copy on write of annotations, for a version `toId` just forked from `fromId` that holds none yet: what
 * `fromId` has, at the cost of its own rows when it is a delta and of nothing when it is not (it becomes
 * the base). `except` names a layer the caller writes itself (rewriteAnnotations).
 */
export async function carryAnnotations(trx: Db, fromId: string, toId: string, except?: AnnotationLayer, floor = FULL_SET_FLOOR): Promise<void> {
  for (const layer of LAYERS) if (layer !== except) await carry(trx, layer, fromId, toId, 0, floor);
}

/**
 * A change to one layer into `toId`, just forked from `fromId` and holding no annotations yet: the media
 * `picked` selects (a query of `media_id` and whatever `changes` read as `p`), each once, that `where`
 * (over `a` and `p`) keeps get a row with `changes` applied, and `toId` gets the rest of `fromId`'s
 * annotations, of this layer and the others. Plain inserts, never an update; cost: the rows changed plus
 * `fromId`'s own rows where it is a delta, whatever the dataset's size (all of them where it is written
 * whole). `pickedRows`, how many rows `picked` selects (or more), spares counting them where the caller knows;
 * `floor`, FULL_SET_FLOOR as configured. Returns how many media changed.
 */
export async function rewriteAnnotations(
  trx: Db,
  layer: AnnotationLayer,
  fromId: string,
  toId: string,
  picked: RawBuilder<unknown>,
  changes: AnnotationChanges,
  where: RawBuilder<boolean> = sql<boolean>`true`,
  pickedRows?: number,
  floor = FULL_SET_FLOOR,
): Promise<number> {
  await assumeCachedPages(trx);
  const base = await baseOf(trx, layer, fromId);
  const names = Object.keys(layer.columns);
  const inherited = base
    ? sql`left join ${heldBy(layer, base)} b on b.media_id = p.media_id`
    : sql`left join (select ${sql.raw(names.map((c) => `${layer.columns[c]} as ${c}`).join(', '))}) b on false`;
  const current = names.map((c) => sql`case when o.media_id is not null then o.${sql.ref(c)} else coalesce(b.${sql.ref(c)}, ${sql.raw(layer.columns[c]!)}) end as ${sql.ref(c)}`);
  const values = names.map((c) => changes[c] ?? sql.ref(`a.${c}`));
  // Only changed media are written: a picked media left as it was keeps its row, inherited or carried below.
  // In media order: in field_rows the new rows fill the key's pages one after another (measured: 1M rows 40 %
  // faster); in a set, the heap follows its key, so a read in key order (a merge join) reads it sequentially (an
  // unsorted 1M set made Explore's field filter 6.2–6.9 s instead of 3.8 s), and the key is built from sorted rows.
  const change = sql`with p as (${picked})
    select ${toId}::uuid, p.media_id, ${sql.join(values)}
    from p
    left join ${heldBy(layer, fromId)} o on o.media_id = p.media_id
    ${inherited}
    cross join lateral (select ${sql.join(current)}) a
    where ${where}
    order by p.media_id`;
  const set = layer.sets ? await setLayout(trx, layer, fromId, pickedRows ?? (await countOf(trx, picked)), floor) : null;
  if (set) {
    const changed = await writeSet(trx, layer, toId, change, set.alone ? null : fromId);
    await carryAnnotations(trx, fromId, toId, layer, floor);
    return changed;
  }
  const result = await sql`insert into ${sql.table(layer.rows)} (version_id, ${columnList(layer)}) ${change}`.execute(trx);
  const changed = Number(result.numAffectedRows ?? 0n);
  await carry(trx, layer, fromId, toId, changed, floor);
  await carryAnnotations(trx, fromId, toId, layer, floor);
  return changed;
}

async function countOf(trx: Db, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from (${query}) q`.execute(trx);
  return rows[0]!.n;
}

/**
 * The layout of a change's layer when it is to be a set (AnnotationLayer.sets), else null: decided before any row
 * is written, counting every picked media as changed (an import changes every media it names).
 */
async function setLayout(trx: Db, layer: AnnotationLayer, fromId: string, written: number, floor: number) {
  const shape = await layout(trx, layer, fromId, written, floor);
  return (shape.alone ? written > floor : shape.whole) ? shape : null;
}
