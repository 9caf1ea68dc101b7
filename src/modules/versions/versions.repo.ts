import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { FieldTypes } from '../../core/custom-fields.js';
import { refreshClusterSummaries, versionRowsOf, wideRows } from './cluster-summaries.js';
import { queueHeadSummaries } from './facet-summaries.js';
import { refreshIssueSummary } from './issue-summaries.js';
import { FULL_SET_FLOOR, carryAnnotations } from './version-annotations.js';

/** A version row's columns but its version_id: what a fork or a copy on write carries over. */
export const ROW_COLUMNS = [
  'media_id',
  'ordinal',
  'cluster_l0',
  'cluster_l1',
  'cluster_l2',
  'cluster_l3',
  'cluster_l4',
  'uniqueness_score',
  'nn_similarity',
  'is_outlier',
  'duplicate_group',
  'caption',
  'objects',
  'enrichment',
  'media_created_at',
  'map_x',
  'map_y',
] as const;
const ROW_STATE = sql.raw(ROW_COLUMNS.join(', '));

/** What an index writes on a row, as a fresh row holds it before the index. */
const INDEX_RESULTS: Partial<Record<(typeof ROW_COLUMNS)[number], string>> = {
  ordinal: 'null',
  cluster_l0: 'null',
  cluster_l1: 'null',
  cluster_l2: 'null',
  cluster_l3: 'null',
  cluster_l4: 'null',
  uniqueness_score: 'null',
  nn_similarity: 'null',
  is_outlier: 'false',
  duplicate_group: 'null',
  map_x: 'null',
  map_y: 'null',
};
/** ROW_STATE with the index's results left out, for a version about to be indexed whole. */
const UNINDEXED_STATE = sql.raw(ROW_COLUMNS.map((column) => INDEX_RESULTS[column] ?? column).join(', '));

/**
 * The wide columns an edit may rewrite (detected objects' labels), each as an expression over the current row
 * `vm`; tags, labels and fields are annotations, copied on write apart (version-annotations.ts).
 */
export type RowChanges = Partial<Record<'objects', RawBuilder<unknown>>>;

/**
 * Copy on write and change in one statement: the version's rows of the media `picked` selects (a query of
 * media_id) that `where` (over `vm`) keeps are written as its own rows with `changes` applied; rows it
 * already owns are updated in place. Each picked media is looked up by key in the version's own rows, else
 * in its base's, so listed ids cost index probes, not a scan of the dataset (nor the view's anti-join,
 * which the planner, blind to a new version's size, ran as a nested loop: quadratic).
 * Cost: the rows touched, whatever the dataset's size. Returns their count.
 */
export async function rewriteRows(
  trx: Db,
  versionId: string,
  picked: RawBuilder<unknown>,
  changes: RowChanges,
  where: RawBuilder<boolean> = sql<boolean>`true`,
): Promise<number> {
  const changed = Object.keys(changes) as Array<keyof RowChanges>;
  if (changed.length === 0) return 0;
  const values = ROW_COLUMNS.map((c) => (c in changes ? sql`${changes[c as keyof RowChanges]!} as ${sql.ref(c)}` : sql.ref(`vm.${c}`)));
  // `picked` must name each media once.
  const q = sql`with picked as materialized (${picked})
    insert into version_rows (version_id, ${ROW_STATE})
    select ${versionId}::uuid, ${sql.join(values)} from (
      select ${sql.join(ROW_COLUMNS.map((c) => sql`case when o.media_id is not null then o.${sql.ref(c)} else b.${sql.ref(c)} end as ${sql.ref(c)}`))}
      from picked p
      left join version_rows o on o.version_id = ${versionId}::uuid and o.media_id = p.media_id
      left join lateral (select r.* from version_bases vb join version_rows r on r.version_id = vb.base_id and r.media_id = p.media_id
        where vb.version_id = ${versionId}::uuid and o.media_id is null) b on true
      where o.media_id is not null or b.media_id is not null
    ) vm
    where ${where}
    on conflict (version_id, media_id) do update set ${sql.join(changed.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`;
  const result = await q.execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Of `ids`, those that are not media of the version (anti-joins against its own rows and its base's). The base
 * is looked up first: named by a join, each id was probed through the media_id index and checked against every
 * version's rows (100k ids at 1M media: 0.55–1.06 s, against 0.23–0.47 s by the primary key).
 */
export async function missingMedia(db: Db, versionId: string, ids: string[], limit = 100): Promise<string[]> {
  await setWorkMem(db, '64MB');
  const base = await db.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  const inBase = base ? sql`and not exists (select 1 from version_rows b where b.version_id = ${base.base_id}::uuid and b.media_id = id)` : sql``;
  const { rows } = await sql<{ id: string }>`select distinct id from unnest(${ids}::uuid[]) id
    where not exists (select 1 from version_rows r where r.version_id = ${versionId}::uuid and r.media_id = id) ${inBase}
    order by id limit ${limit}`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * Copy on write: the rows of `mediaIds` that the (unsealed) version only inherits from its base become
 * its own, so they can be updated in place like the rest of its rows.
 */
export async function ownRows(trx: Db, versionId: string, mediaIds: string[]): Promise<void> {
  await sql`insert into version_rows (version_id, ${ROW_STATE}) select ${versionId}::uuid, ${ROW_STATE}
    from version_media where version_id = ${versionId}::uuid and media_id = any(${mediaIds}::uuid[])
    on conflict (version_id, media_id) do nothing`.execute(trx);
}

/**
 * How a change's version starts: a copy of every row; a copy of every row without the index's results (for
 * a version indexed whole next, which then writes each row once instead of clearing it first); or only what
 * differs from a sealed base.
 */
export type ForkKind = 'full' | 'unindexed' | 'delta';

export interface VersionCounts {
  n_images: number;
  n_videos: number;
  n_objects: number;
}

/** Copy-on-write membership: a change writes a new version beside the head and swaps the head on commit. */
export class VersionsRepo {
  constructor(
    private readonly db: Db,
    /** config.fullSetFloor (see FULL_SET_FLOOR). */
    private readonly fullSetFloor = FULL_SET_FLOOR,
  ) {}

  /**
   * The unsealed version a task writes its change into: forked from the head on the task's first run,
   * found again on a rerun so the work resumes instead of starting a second copy.
   */
  async forkForTask(trx: Db, datasetId: string, taskId: string, kind: ForkKind = 'full'): Promise<string> {
    const existing = await trx.selectFrom('versions').select(['id', 'sealed']).where('task_id', '=', taskId).executeTakeFirst();
    if (existing?.sealed) throw new Error(`version ${existing.id} of task ${taskId} is sealed and cannot be written`);
    return existing ? existing.id : this.fork(trx, datasetId, taskId, kind);
  }

  /**
   * A new unsealed version holding everything the current head holds. `full` copies every row (a change
   * that rewrites them all: an index); `delta` copies none: the new version inherits the rows of the
   * head's base (the head itself, sealed for that, when it has none) and copies only the head's own
   * rows, so its cost is what changed since the base, not the dataset's size. Annotations are carried the
   * same way, unless `annotations` is 'written by the caller' (rewriteAnnotations does both). `without` (a query of
   * media_id; full forks only) names media the new version leaves out: a dedup removes them in the same copy.
   */
  async fork(
    trx: Db,
    datasetId: string,
    taskId: string | null = null,
    kind: ForkKind = 'full',
    annotations: 'carried' | 'written by the caller' = 'carried',
    without: RawBuilder<unknown> | null = null,
  ): Promise<string> {
    if (without && kind !== 'full') throw new Error('only a full fork can leave media out');
    const head = await trx.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).forUpdate().executeTakeFirstOrThrow();
    const headId = head.head_version_id;
    const headRow = headId ? await trx.selectFrom('versions').select(['base_id', 'field_types']).where('id', '=', headId).executeTakeFirstOrThrow() : null;
    const headBase = headRow?.base_id ?? null;
    if (kind === 'delta' && headId && headBase && (await this.ownsMost(trx, headId, headBase))) kind = 'full';
    const baseId = kind === 'delta' && headId ? (headBase ?? headId) : null;
    if (baseId) await this.seal(trx, baseId);
    const { id } = await trx
      .insertInto('versions')
      .values({ dataset_id: datasetId, parent_id: headId, task_id: taskId, base_id: baseId, field_types: JSON.stringify(headRow?.field_types ?? {}) as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (baseId) {
      await trx.insertInto('version_bases').values({ version_id: id, base_id: baseId }).execute();
      // The table stays far below autovacuum's thresholds; without statistics the planner reads a delta's
      // inherited rows by index probes (measured: Explore at 1M media 4.4 s instead of 2.2 s).
      await sql`analyze version_bases`.execute(trx);
    }
    if (headId && baseId !== headId) {
      // full: every row the head has (own and inherited); delta over the head's base: the head's own rows.
      // Read from the rows, not version_media, whose annotation and custom-field joins a copy of the rows does not use.
      await sql`insert into version_rows (version_id, ${ROW_STATE}) select ${id}::uuid, ${kind === 'unindexed' ? UNINDEXED_STATE : ROW_STATE}
        from ${wideRows(headId, baseId ? null : headBase)} s
        ${without ? sql`where not exists (select 1 from (${without}) x where x.media_id = s.media_id)` : sql``}`.execute(trx);
    }
    if (headId) {
      // The head's ANN index serves the fork until a change rewrites it (an index, a batch attached to it).
      await sql`insert into version_indexes (version_id, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params)
        select ${id}::uuid, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params from version_indexes where version_id = ${headId}::uuid`.execute(trx);
      if (annotations === 'carried') await carryAnnotations(trx, headId, id, undefined, this.fullSetFloor);
    }
    return id;
  }

  /**
   * Whether a delta head owns so many rows (over the full-set floor and at least half its base's) that a delta fork,
   * which copies them, costs about a full copy: then a full fork is made instead, once, and the forks after
   * it (over it, sealed, as their base) copy nothing. Counts stop early for small deltas.
   */
  private async ownsMost(trx: Db, headId: string, baseId: string): Promise<boolean> {
    const { rows } = await sql<{ own: number }>`select count(*)::int as own from (select 1 from version_rows
      where version_id = ${headId}::uuid limit ${this.fullSetFloor + 1}) s`.execute(trx);
    if (rows[0]!.own <= this.fullSetFloor) return false;
    const { rows: all } = await sql<{ own: number; base: number }>`select
      (select count(*)::int from version_rows where version_id = ${headId}::uuid) as own,
      (select count(*)::int from version_rows where version_id = ${baseId}::uuid) as base`.execute(trx);
    return all[0]!.own * 2 >= all[0]!.base;
  }

  /** Adds the media an upload transaction produced, with the frames of its videos. */
  async addTransactionMedia(trx: Db, versionId: string, datasetId: string, transId: number): Promise<void> {
    await sql`insert into version_rows (version_id, media_id)
      select ${versionId}::uuid, m.id
      from upload_files f join media m on m.id = f.media_id or m.parent_media_id = f.media_id
      where f.dataset_id = ${datasetId}::uuid and f.trans_id = ${transId}::int
      on conflict do nothing`.execute(trx);
  }

  /** Read from the version's rows: version_media would merge in every tag and field row to count media. */
  async counts(trx: Db, versionId: string): Promise<VersionCounts> {
    const { rows } = await sql<VersionCounts>`
      select count(*) filter (where m.media_type = 'IMAGE')::int8 as n_images,
        count(*) filter (where m.media_type = 'VIDEO')::int8 as n_videos,
        coalesce(sum(jsonb_array_length(vm.objects)), 0)::int8 as n_objects
      from ${await versionRowsOf(trx, versionId)} vm join media m on m.id = vm.media_id`.execute(trx);
    return rows[0]!;
  }

  /**
   * Makes `versionId` the dataset's head, with its cluster summaries and issues; the one it replaces is released (the sweep reclaims it when nothing else holds it).
   * Counts without `n_objects` (an edit, which detects nothing) keep the dataset's. The status is the dataset lifecycle's to set.
   */
  async swapHead(trx: Db, datasetId: string, versionId: string, counts: Omit<VersionCounts, 'n_objects'> & { n_objects?: number }): Promise<void> {
    const previous = await trx.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).forUpdate().executeTakeFirstOrThrow();
    await trx
      .updateTable('datasets')
      .set({ head_version_id: versionId, progress: 100, fatal_error_msg: null, ...counts })
      .where('id', '=', datasetId)
      .execute();
    if (previous.head_version_id && previous.head_version_id !== versionId) {
      await trx.updateTable('versions').set({ released_at: sql`now()` }).where('id', '=', previous.head_version_id).execute();
    }
    await refreshClusterSummaries(trx, versionId, previous.head_version_id);
    await refreshIssueSummary(trx, versionId, previous.head_version_id);
    if (previous.head_version_id !== versionId) await queueHeadSummaries(trx, datasetId);
  }

  async fieldTypes(db: Db, versionId: string): Promise<FieldTypes> {
    const row = await db.selectFrom('versions').select('field_types').where('id', '=', versionId).executeTakeFirst();
    return (row?.field_types ?? {}) as FieldTypes;
  }

  async setFieldTypes(trx: Db, versionId: string, types: FieldTypes): Promise<void> {
    await trx.updateTable('versions').set({ field_types: JSON.stringify(types) as never }).where('id', '=', versionId).execute();
  }

  /** Sealed versions are never written again: every later change forks a new one. */
  async seal(trx: Db, versionId: string): Promise<void> {
    await trx.updateTable('versions').set({ sealed: true }).where('id', '=', versionId).execute();
  }
}
