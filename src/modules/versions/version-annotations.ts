import { type RawBuilder, sql } from 'kysely';
import { type Db, assumeCachedPages } from '../../adapters/db/database.js';

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
};

const LAYERS = [TAGS_AND_LABELS, CUSTOM_FIELDS];

/**
 * The layer's columns a change sets, each an expression over `a` (the media's values in the version forked
 * from; the defaults where it has none) and `p` (the picked row).
 */
export type AnnotationChanges = Record<string, RawBuilder<unknown>>;

/**
 * A delta that would own more than this many rows, and at least half its base's, is written whole instead: the
 * same rule for a layer here and for version rows (VersionsRepo.fork).
 */
export const FULL_SET_FLOOR = 50_000;

const columnList = (layer: AnnotationLayer, alias?: string) =>
  sql.raw(['media_id', ...Object.keys(layer.columns)].map((c) => (alias ? `${alias}.${c}` : c)).join(', '));

async function baseOf(db: Db, layer: AnnotationLayer, versionId: string): Promise<string | null> {
  const { rows } = await sql<{ base_id: string }>`select base_id from ${sql.table(layer.bases)} where version_id = ${versionId}::uuid`.execute(db);
  return rows[0]?.base_id ?? null;
}

/** How many rows of the layer the version holds itself, counting no further than `cap`. */
async function ownRows(db: Db, layer: AnnotationLayer, versionId: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${sql.table(layer.rows)}
    where version_id = ${versionId}::uuid limit ${cap}) s`.execute(db);
  return rows[0]!.n;
}

/**
 * Completes the layer of `toId`, forked from `fromId` and already holding the `written` rows of a change (none
 * when it only carries): it inherits the rows it does not hold from a sealed base (fromId's base, or fromId
 * itself when that has none), copying fromId's own rows when fromId is a delta. Or, when it would then own
 * more than FULL_SET_FLOOR rows and half its base's, it is written whole instead (every row of fromId it does
 * not hold), so no delta ever owns as much as its base and the forks after it copy nothing.
 */
async function carry(trx: Db, layer: AnnotationLayer, fromId: string, toId: string, written: number): Promise<void> {
  const base = await baseOf(trx, layer, fromId);
  // Counts stop where the answer is known: a full version's rows are many, a delta's are fewer than half its base's.
  const fromOwn = await ownRows(trx, layer, fromId, base ? Number.MAX_SAFE_INTEGER : 2 * written + 1);
  if (!base && fromOwn === 0) return;
  const rows = sql.table(layer.rows);
  const notHeld = written > 0 ? sql`and not exists (select 1 from ${rows} h where h.version_id = ${toId}::uuid and h.media_id = r.media_id)` : sql``;
  const own = written + (base ? fromOwn : 0);
  if (own > FULL_SET_FLOOR && own * 2 >= (base ? await ownRows(trx, layer, base, 2 * own + 1) : fromOwn)) {
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
  if (base) {
    await sql`insert into ${rows} (version_id, ${columnList(layer)}) select ${toId}::uuid, ${columnList(layer, 'r')}
      from ${rows} r where r.version_id = ${fromId}::uuid ${notHeld}`.execute(trx);
  }
}

/**
 * Copy on write of annotations, for a version `toId` just forked from `fromId` that holds none yet: what
 * `fromId` has, at the cost of its own rows when it is a delta and of nothing when it is not (it becomes
 * the base). `except` names a layer the caller writes itself (rewriteAnnotations).
 */
export async function carryAnnotations(trx: Db, fromId: string, toId: string, except?: AnnotationLayer): Promise<void> {
  for (const layer of LAYERS) if (layer !== except) await carry(trx, layer, fromId, toId, 0);
}

/**
 * A change to one layer into `toId`, just forked from `fromId` and holding no annotations yet: the media
 * `picked` selects (a query of `media_id` and whatever `changes` read as `p`), each once, that `where`
 * (over `a` and `p`) keeps get a row with `changes` applied, and `toId` gets the rest of `fromId`'s
 * annotations, of this layer and the others. Plain inserts, never an update; cost: the rows changed plus
 * `fromId`'s own rows where it is a delta, whatever the dataset's size. Returns how many media changed.
 */
export async function rewriteAnnotations(
  trx: Db,
  layer: AnnotationLayer,
  fromId: string,
  toId: string,
  picked: RawBuilder<unknown>,
  changes: AnnotationChanges,
  where: RawBuilder<boolean> = sql<boolean>`true`,
): Promise<number> {
  await assumeCachedPages(trx);
  const base = await baseOf(trx, layer, fromId);
  const names = Object.keys(layer.columns);
  const inherited = base
    ? sql`left join ${sql.table(layer.rows)} b on b.version_id = ${base}::uuid and b.media_id = p.media_id`
    : sql`left join (select ${sql.raw(names.map((c) => `${layer.columns[c]} as ${c}`).join(', '))}) b on false`;
  const current = names.map((c) => sql`case when o.media_id is not null then o.${sql.ref(c)} else coalesce(b.${sql.ref(c)}, ${sql.raw(layer.columns[c]!)}) end as ${sql.ref(c)}`);
  const values = names.map((c) => changes[c] ?? sql.ref(`a.${c}`));
  // Only changed media are written: a picked media left as it was keeps its row, inherited or carried below.
  const result = await sql`with p as (${picked})
    insert into ${sql.table(layer.rows)} (version_id, ${columnList(layer)})
    select ${toId}::uuid, p.media_id, ${sql.join(values)}
    from p
    left join ${sql.table(layer.rows)} o on o.version_id = ${fromId}::uuid and o.media_id = p.media_id
    ${inherited}
    cross join lateral (select ${sql.join(current)}) a
    where ${where}
    -- In key order the new rows fill the index's pages one after another (measured: 1M rows 40 % faster).
    order by p.media_id`.execute(trx);
  const changed = Number(result.numAffectedRows ?? 0n);
  await carry(trx, layer, fromId, toId, changed);
  await carryAnnotations(trx, fromId, toId, layer);
  return changed;
}
