import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { CLUSTER_LEVELS } from '../../core/clustering.js';

/** Members a cluster summary keeps, best first: a page asking for more per cluster reads the version's rows. */
export const SUMMARY_PREVIEWS = 20;
/** Advisory locks on `prefix || version id` keep two transactions from summarising one version. */
const LOCK_PREFIX = 'summaries:';

export const LEVELS = Array.from({ length: CLUSTER_LEVELS }, (_, level) => level);

/** Explore's member order for a size-sorted page without a text query (explore/cluster-page.ts, groupedPage). */
export const MEMBER_ORDER = sql`cardinality(m.quality_flags) asc, (coalesce(m.width, 0)::int8 * coalesce(m.height, 0)) desc, w.uniqueness_score desc nulls last, w.media_id`;

/**
 * The wide rows of a version: its own, and its base's it does not hold itself (a fork copies them, too). `inline`
 * writes the ids into the text, for a statement that takes no parameters (a COPY).
 */
export function wideRows(versionId: string, baseId: string | null, inline = false): RawBuilder<unknown> {
  const id = (value: string) => (inline ? sql`${sql.lit(value)}::uuid` : sql`${value}::uuid`);
  const own = sql`select r.* from version_rows r where r.version_id = ${id(versionId)}`;
  if (!baseId) return sql`(${own})`;
  return sql`(${own} union all select b.* from version_rows b where b.version_id = ${id(baseId)}
    and not exists (select 1 from version_rows o where o.version_id = ${id(versionId)} and o.media_id = b.media_id))`;
}

/** wideRows of a version, its base looked up first (as layerRows does for annotations). */
export async function versionRowsOf(db: Db, versionId: string, inline = false): Promise<RawBuilder<unknown>> {
  const base = await db.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  return wideRows(versionId, base?.base_id ?? null, inline);
}

/** A version's summaries at `level`, its own and its base's it does not hold itself (tombstones of size 0 included). */
function summariesOf(versionId: string, baseId: string | null, level: number): RawBuilder<unknown> {
  const own = sql`select s.* from cluster_summaries s where s.version_id = ${versionId}::uuid and s.level = ${level}::int2`;
  if (!baseId) return sql`(${own})`;
  return sql`(${own} union all select b.* from cluster_summaries b where b.version_id = ${baseId}::uuid and b.level = ${level}::int2
    and not exists (select 1 from cluster_summaries o where o.version_id = ${versionId}::uuid and o.level = ${level}::int2 and o.cluster_id = b.cluster_id))`;
}

/**
 * One summary row per level and cluster of the CTE `members` (the members in Explore's order, `position`; their
 * clusters, counts and uniqueness), each group also split by `keys` (columns of `members`, first in each row):
 * counts and the first SUMMARY_PREVIEWS members. `clusters` keeps only some clusters of a level.
 */
export function levelSummaries(keys: string[] = [], clusters: (level: number) => RawBuilder<boolean> = () => sql<boolean>`true`): RawBuilder<unknown> {
  const leading = sql.raw(keys.map((k) => `${k}, `).join(''));
  const perLevel = LEVELS.map((level) => {
    const cluster = sql.raw(`cluster_l${level}`);
    return sql`select ${leading}${level}::int2 as level, ${cluster} as cluster_id, count(*)::int as size,
      count(*) filter (where media_type = 'IMAGE')::int as n_images, count(distinct parent_media_id)::int as n_videos,
      sum(n_objects)::int as n_objects, max(uniqueness_score) as best_uniqueness,
      (array_agg(media_id order by position))[1:${SUMMARY_PREVIEWS}::int] as previews
      from members where ${cluster} is not null and ${clusters(level)} group by ${leading}${cluster}`;
  });
  return sql.join(perLevel, sql` union all `);
}

/**
 * Summarises the clusters of the version's rows `members` selects (over `w` and `m`): one row per cluster and
 * level, with its first SUMMARY_PREVIEWS members in Explore's order.
 */
function insertSummaries(versionId: string, rows: RawBuilder<unknown>, members: RawBuilder<boolean>, clusters: (level: number) => RawBuilder<boolean>): RawBuilder<unknown> {
  return sql`insert into cluster_summaries (version_id, level, cluster_id, size, n_images, n_videos, n_objects, best_uniqueness, previews)
    with members as materialized (
      select w.media_id, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4, w.uniqueness_score,
        coalesce(jsonb_array_length(w.objects), 0) as n_objects, m.media_type, m.parent_media_id,
        row_number() over (order by ${MEMBER_ORDER}) as position
      from ${rows} w join media m on m.id = w.media_id
      where m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${members}
    )
    select ${versionId}::uuid, s.* from (${levelSummaries([], clusters)}) s`;
}

/** Per level: clusters with members, the media in them (images and video frames), and the images among those. */
export interface SummaryCounts {
  n_clusters: number[];
  n_media: number[];
  n_images: number[];
}

export async function summaryState(db: Db, versionId: string): Promise<({ base_id: string | null } & SummaryCounts) | undefined> {
  const { rows } = await sql<{ base_id: string | null } & SummaryCounts>`select base_id, n_clusters, n_media, n_images from version_summaries
    where version_id = ${versionId}::uuid`.execute(db);
  return rows[0];
}

async function insertState(trx: Db, versionId: string, baseId: string | null, c: SummaryCounts): Promise<void> {
  await sql`insert into version_summaries (version_id, base_id, n_clusters, n_media, n_images)
    values (${versionId}::uuid, ${baseId}::uuid, ${c.n_clusters}::int[], ${c.n_media}::int[], ${c.n_images}::int[])`.execute(trx);
}

/** Summarises every cluster of the version (as whole summaries, inheriting none). Cost: a scan and a sort of its rows. */
async function buildAll(trx: Db, versionId: string, baseId: string | null): Promise<void> {
  await insertSummaries(versionId, wideRows(versionId, baseId), sql<boolean>`true`, () => sql<boolean>`true`).execute(trx);
  const { rows } = await sql<{ level: number; n: number; media: number; images: number }>`select level, count(*)::int as n,
    sum(size)::int as media, sum(n_images)::int as images from cluster_summaries where version_id = ${versionId}::uuid group by level`.execute(trx);
  const at = (level: number) => rows.find((r) => r.level === level);
  await insertState(trx, versionId, null, {
    n_clusters: LEVELS.map((l) => at(l)?.n ?? 0),
    n_media: LEVELS.map((l) => at(l)?.media ?? 0),
    n_images: LEVELS.map((l) => at(l)?.images ?? 0),
  });
}

/** The state a summary depends on, of media `c.media_id` in a version (its own row, else its base's), as `alias`. */
function stateOf(versionId: string, baseId: string | null, alias: string): RawBuilder<unknown> {
  const own = sql`select r.* from version_rows r where r.version_id = ${versionId}::uuid and r.media_id = c.media_id`;
  const source = baseId
    ? sql`(${own} union all select b.* from version_rows b where b.version_id = ${baseId}::uuid and b.media_id = c.media_id
        and not exists (select 1 from version_rows o where o.version_id = ${versionId}::uuid and o.media_id = c.media_id))`
    : sql`(${own})`;
  return sql`left join lateral (select x.cluster_l0, x.cluster_l1, x.cluster_l2, x.cluster_l3, x.cluster_l4, x.uniqueness_score,
    coalesce(jsonb_array_length(x.objects), 0) as n_objects, true as present from ${source} x) ${sql.raw(alias)} on true`;
}

/**
 * Summarises only what the version's change touched: the clusters (old and new) of the media whose state differs
 * from `reference` (the previous head over the same base, or the base itself), over summaries inherited from the
 * base. Cost: the rows the version and the reference hold themselves, and one scan of the version's rows.
 */
async function buildDelta(trx: Db, versionId: string, baseId: string, reference: string): Promise<void> {
  const refBase = reference === baseId ? null : baseId;
  const candidates =
    reference === baseId
      ? sql`select media_id from version_rows where version_id = ${versionId}::uuid`
      : sql`select media_id from version_rows where version_id = ${versionId}::uuid union select media_id from version_rows where version_id = ${reference}::uuid`;
  const cols = ['cluster_l0', 'cluster_l1', 'cluster_l2', 'cluster_l3', 'cluster_l4'];
  const { rows } = await sql<{ media_id: string; old: Array<string | null>; new: Array<string | null>; member_changed: boolean; added_image: boolean }>`
    select c.media_id, array[${sql.raw(cols.map((c) => `o.${c}`).join(', '))}]::text[] as old, array[${sql.raw(cols.map((c) => `n.${c}`).join(', '))}]::text[] as new,
      (n.n_objects, n.uniqueness_score) is distinct from (o.n_objects, o.uniqueness_score) as member_changed,
      coalesce(o.present is null and n.present and (select m.media_type = 'IMAGE' from media m where m.id = c.media_id), false) as added_image
    from (${candidates}) c
    ${stateOf(versionId, baseId, 'n')}
    ${stateOf(reference, refBase, 'o')}
    where (n.cluster_l0, n.cluster_l1, n.cluster_l2, n.cluster_l3, n.cluster_l4, n.uniqueness_score, n.n_objects)
      is distinct from (o.cluster_l0, o.cluster_l1, o.cluster_l2, o.cluster_l3, o.cluster_l4, o.uniqueness_score, o.n_objects)`.execute(trx);
  // A level's clusters change only with their membership, or with a member's own state (one moved at level 0 alone
  // leaves its coarser clusters as they were).
  const changedAt = (level: number) => rows.filter((r) => r.member_changed || r.old[level] !== r.new[level]);
  const touchedBy = (level: number) => changedAt(level).flatMap((r) => [r.old[level], r.new[level]]);
  const touched = LEVELS.map((level) => [...new Set(touchedBy(level).filter((c): c is string => c != null))]);
  const touchedAt = (level: number) => sql`${touched[level]!}::uuid[]`;
  // A cluster that only gained images (media added) is merged: its summary plus the new members, no scan.
  const merged = LEVELS.map((level) => {
    const blocked = new Set(changedAt(level).filter((r) => !r.added_image).flatMap((r) => [r.old[level], r.new[level]]));
    return new Set(touched[level]!.filter((c) => !blocked.has(c)));
  });
  const recomputed = LEVELS.map((level) => touched[level]!.filter((c) => !merged[level]!.has(c)));
  const recomputedAt = (level: number) => sql`${recomputed[level]!}::uuid[]`;
  // `in (select …)` runs as a hashed subplan: `= any(array)` compared every row with each id (100k rows: 0.67 s).
  const isTouched = (level: number) => sql<boolean>`w.cluster_l${sql.raw(String(level))} in (select unnest(${recomputedAt(level)}))`;
  const referenceSummary = (await summaryState(trx, reference))!;
  if (reference !== baseId) {
    for (const level of LEVELS) {
      await sql`insert into cluster_summaries select ${versionId}::uuid, level, cluster_id, size, n_images, n_videos, n_objects, best_uniqueness, previews
        from cluster_summaries where version_id = ${reference}::uuid and level = ${level}::int2 and not (cluster_id = any(${touchedAt(level)}))`.execute(trx);
    }
  }
  if (recomputed.some((ids) => ids.length > 0)) {
    const anyTouched = sql<boolean>`(${sql.join(LEVELS.map(isTouched), sql` or `)})`;
    await insertSummaries(versionId, wideRows(versionId, baseId), anyTouched, (level) => sql<boolean>`cluster_l${sql.raw(String(level))} = any(${recomputedAt(level)})`).execute(trx);
  }
  const additions = rows.filter((r) => r.added_image).flatMap((r) => LEVELS.filter((l) => r.new[l] && merged[l]!.has(r.new[l]!)).map((l) => ({ level: l, cluster: r.new[l]!, media: r.media_id })));
  if (additions.length > 0) await mergeAdditions(trx, versionId, baseId, reference, referenceSummary.base_id, additions);
  const counts: SummaryCounts = { n_clusters: [], n_media: [], n_images: [] };
  for (const level of LEVELS) {
    const ids = touched[level]!;
    if (ids.length > 0) {
      await sql`insert into cluster_summaries (version_id, level, cluster_id, size, n_images, n_videos, n_objects, best_uniqueness, previews)
        select ${versionId}::uuid, ${level}::int2, id, 0, 0, 0, 0, null, '{}' from unnest(${ids}::uuid[]) id
        on conflict do nothing`.execute(trx);
    }
    const tally = (from: RawBuilder<unknown>) => sql`(select count(*) filter (where s.size > 0)::int as clusters, coalesce(sum(s.size), 0)::int as media,
      coalesce(sum(s.n_images), 0)::int as images from ${from} s where s.cluster_id = any(${ids}::uuid[]))`;
    type Tally = { clusters: number; media: number; images: number };
    const { rows: tallies } = await sql<{ before: Tally; after: Tally }>`select to_jsonb(b) as before, to_jsonb(a) as after
      from ${tally(summariesOf(reference, referenceSummary.base_id, level))} b,
        ${tally(sql`(select * from cluster_summaries where version_id = ${versionId}::uuid and level = ${level}::int2)`)} a`.execute(trx);
    const { before, after } = tallies[0]!;
    counts.n_clusters.push(referenceSummary.n_clusters[level]! - before.clusters + after.clusters);
    counts.n_media.push(referenceSummary.n_media[level]! - before.media + after.media);
    counts.n_images.push(referenceSummary.n_images[level]! - before.images + after.images);
  }
  await insertState(trx, versionId, baseId, counts);
}

/** The row of media `<alias>.media_id` in a version: its own, else its base's. */
export function rowOf(versionId: string, baseId: string | null, alias = 'c'): RawBuilder<unknown> {
  const media = sql.ref(`${alias}.media_id`);
  const own = sql`select r.* from version_rows r where r.version_id = ${versionId}::uuid and r.media_id = ${media}`;
  return baseId ? sql`(${own} union all select b.* from version_rows b where b.version_id = ${baseId}::uuid and b.media_id = ${media} limit 1)` : sql`(${own} limit 1)`;
}

/**
 * Summaries of clusters that only gained images: the reference's summary plus the new members, its previews ranked
 * again with theirs. Exact, since none of its other members changed. Cost: the additions and the clusters' previews.
 */
async function mergeAdditions(
  trx: Db,
  versionId: string,
  baseId: string,
  reference: string,
  referenceBase: string | null,
  additions: Array<{ level: number; cluster: string; media: string }>,
): Promise<void> {
  const summaryOf = (version: string) =>
    sql`select s.* from cluster_summaries s where s.version_id = ${version}::uuid and s.level = k.level and s.cluster_id = k.cluster_id`;
  // Each lookup `limit 1`, a probe by key: flattened, the planner hashed every summary and row of the version.
  const oldSummary = referenceBase ? sql`(${summaryOf(reference)} union all ${summaryOf(referenceBase)} limit 1)` : sql`(${summaryOf(reference)} limit 1)`;
  await sql`insert into cluster_summaries (version_id, level, cluster_id, size, n_images, n_videos, n_objects, best_uniqueness, previews)
    with added as (select * from unnest(${additions.map((a) => a.level)}::int2[], ${additions.map((a) => a.cluster)}::uuid[], ${additions.map((a) => a.media)}::uuid[]) a(level, cluster_id, media_id)),
    old as (select k.level, k.cluster_id, s.size, s.n_images, s.n_videos, s.n_objects, s.best_uniqueness, coalesce(s.previews, '{}') as previews
      from (select distinct level, cluster_id from added) k left join lateral ${oldSummary} s on true),
    candidates as (
      select a.level, a.cluster_id, a.media_id, true as new from added a
      union all
      select o.level, o.cluster_id, p.media_id, false from old o cross join unnest(o.previews) p(media_id)
    ),
    ranked as (
      select c.level, c.cluster_id, c.new, w.media_id, w.uniqueness_score, coalesce(jsonb_array_length(w.objects), 0) as n_objects, m.quality_flags, m.width, m.height
      from candidates c cross join lateral ${rowOf(versionId, baseId)} w cross join lateral (select * from media where id = c.media_id limit 1) m
    )
    select ${versionId}::uuid, o.level, o.cluster_id, coalesce(o.size, 0) + x.k, coalesce(o.n_images, 0) + x.k, coalesce(o.n_videos, 0),
      coalesce(o.n_objects, 0) + x.objects, greatest(o.best_uniqueness, x.best), x.previews
    from old o join (
      select level, cluster_id, count(*) filter (where new)::int as k, coalesce(sum(n_objects) filter (where new), 0)::int as objects,
        max(uniqueness_score) filter (where new) as best,
        (array_agg(media_id order by cardinality(quality_flags) asc, (coalesce(width, 0)::int8 * coalesce(height, 0)) desc, uniqueness_score desc nulls last, media_id))[1:${SUMMARY_PREVIEWS}::int] as previews
      from ranked group by level, cluster_id
    ) x using (level, cluster_id)`.execute(trx);
}

/**
 * Gives a version becoming its dataset's head the cluster summaries Explore pages read, unless it has them (a
 * restored snapshot). A delta version whose base is summarised whole summarises only what its change touched,
 * against the previous head when that shares its base; any other version is summarised whole.
 */
export async function refreshClusterSummaries(trx: Db, versionId: string, previousHeadId: string | null): Promise<void> {
  // A sealed version can become a head twice at once (a restore, a clone) while the sweep summarises it: one writes.
  await sql`select pg_advisory_xact_lock(hashtext(${LOCK_PREFIX} || ${versionId}::text))`.execute(trx);
  if (await summaryState(trx, versionId)) return;
  const base = await trx.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  const baseSummary = base ? await summaryState(trx, base.base_id) : undefined;
  if (!base || !baseSummary || baseSummary.base_id !== null) return buildAll(trx, versionId, base?.base_id ?? null);
  const previous = previousHeadId && previousHeadId !== base.base_id ? await summaryState(trx, previousHeadId) : undefined;
  const reference = previous && previous.base_id === base.base_id ? previousHeadId! : base.base_id;
  await buildDelta(trx, versionId, base.base_id, reference);
}

/**
 * Summarises one dataset head that has no summaries (written before they existed), under an advisory lock so two
 * workers never summarise the same head; returns whether one was found. Explore reads the rows until then.
 */
export async function summariseOneHead(db: Db): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`select d.head_version_id as id from datasets d
      where d.head_version_id is not null and not exists (select 1 from version_summaries s where s.version_id = d.head_version_id)
        and pg_try_advisory_xact_lock(hashtext(${LOCK_PREFIX} || d.head_version_id::text))
      limit 1`.execute(trx);
    const head = rows[0];
    if (!head) return false;
    await refreshClusterSummaries(trx, head.id, null);
    return true;
  });
}
