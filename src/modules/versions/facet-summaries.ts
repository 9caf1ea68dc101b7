import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import { addJob } from '../../adapters/queue/graphile-queue.js';
import { writeListAnchors } from '../media/list-anchors.js';
import { LEVELS, MEMBER_ORDER, levelSummaries, rowOf, summaryState, wideRows } from './cluster-summaries.js';
import { TAGS_AND_LABELS, layerRows } from './version-annotations.js';

/**
 * The job that writes what a dataset head's pages read beyond its cluster summaries once it is the head: its facet
 * summaries and its media list's anchors (payload: `{ datasetId }`).
 */
export const HEAD_SUMMARIES_JOB = 'summarise-head';
/** Advisory locks on `prefix || version id` keep two transactions from summarising one version's facets. */
const LOCK_PREFIX = 'facets:';

/** What a facet summary counts the members of: those with a tag, or with a label (their own, or a detected object's). */
export type Facet = 'tag' | 'label';

/** Queues HEAD_SUMMARIES_JOB for the dataset, in the transaction that changes its head; one job per dataset waits. */
export async function queueHeadSummaries(trx: Db, datasetId: string): Promise<void> {
  await addJob(trx, HEAD_SUMMARIES_JOB, { datasetId }, { key: `${HEAD_SUMMARIES_JOB}:${datasetId}` });
}

/** Per level, how many clusters have members with the facet's value in the version; undefined when not summarised. */
export async function facetTotals(db: Db, versionId: string, facet: Facet, value: string): Promise<number[] | undefined> {
  const { rows } = await sql<{ n_clusters: number[] }>`select n_clusters from facet_totals
    where version_id = ${versionId}::uuid and facet = ${facet} and value = ${value}`.execute(db);
  return rows[0]?.n_clusters;
}

/**
 * Every (facet, value, media) of the version: each tag of a media, and each label, its own or a detected object's,
 * once per media (Explore's label filter matches either).
 */
function facetPairs(annotations: RawBuilder<unknown>, rows: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select 'tag' as facet, t as value, a.media_id from ${annotations} a cross join unnest(a.tags) t
    union all
    select 'label', l.value, l.media_id from (
      select a.label as value, a.media_id from ${annotations} a where a.label is not null
      union
      select o ->> 'label', w.media_id from ${rows} w cross join jsonb_array_elements(w.objects) o where w.objects is not null and o ->> 'label' is not null
    ) l`;
}

/**
 * Writes the facet summaries of a version (migration 0036): for each tag and label that at least `floor` of its
 * media carry (the most common first, their members together no more than its clustered media), per level, the
 * clusters those media fall in with their counts and first members in Explore's order, as cluster-summaries.ts does
 * for all members. Cost: a read of the version's annotations and detected objects, and a probe of the row and the
 * media of each member of a summarised facet.
 */
async function writeFacets(trx: Db, versionId: string, floor: number): Promise<void> {
  const base = await trx.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
  const baseId = base?.base_id ?? null;
  const annotations = await layerRows(trx, TAGS_AND_LABELS, versionId);
  // The most common facets first, until their members would outnumber the version's clustered media: a dataset whose
  // every media carries many common tags would otherwise write summaries many times its own size at each change.
  const cap = Math.max(floor, (await summaryState(trx, versionId))?.n_media[0] ?? 0);
  // The members' sorts (Explore's order, then by cluster per level) stay in memory: in the default 4 MB, 200k members
  // of two facets at 1M media spilled ≈ 70 MB to disk (time alike: the cost is CPU, docs/scale.md).
  await setWorkMem(trx, '256MB');
  await sql`insert into facet_summaries (version_id, facet, value, level, cluster_id, size, n_images, n_videos, n_objects, best_uniqueness, previews)
    with pairs as materialized (${facetPairs(annotations, wideRows(versionId, baseId))}),
    counted as (select facet, value, count(*) as n from pairs group by facet, value having count(*) >= ${floor}::int),
    popular as (select facet, value from (select facet, value, sum(n) over (order by n desc, facet, value) as running from counted) c
      where running <= ${cap}::int8),
    members as materialized (
      select p.facet, p.value, w.media_id, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4, w.uniqueness_score,
        coalesce(jsonb_array_length(w.objects), 0) as n_objects, m.media_type, m.parent_media_id,
        row_number() over (partition by p.facet, p.value order by ${MEMBER_ORDER}) as position
      from pairs p join popular using (facet, value)
      cross join lateral ${rowOf(versionId, baseId, 'p')} w
      cross join lateral (select * from media where id = p.media_id limit 1) m
      where m.media_type in ('IMAGE', 'VIDEO_FRAME')
    )
    select ${versionId}::uuid, s.* from (${levelSummaries(['facet', 'value'])}) s
    order by s.facet, s.value, s.level, s.size desc, s.cluster_id`.execute(trx);
  const counts = LEVELS.map((level) => sql`count(*) filter (where level = ${level}::int2)::int`);
  await sql`insert into facet_totals (version_id, facet, value, n_clusters)
    select ${versionId}::uuid, facet, value, array[${sql.join(counts)}] from facet_summaries where version_id = ${versionId}::uuid
    group by facet, value`.execute(trx);
  await sql`insert into version_facets (version_id, floor) values (${versionId}::uuid, ${floor}::int)`.execute(trx);
}

/**
 * Summarises the facets of the dataset's head, and writes its media list's anchors, unless they are written (or a
 * transaction is writing them: `version_facets` marks both); returns whether it wrote them. A head that changes
 * meanwhile queues its own job.
 */
export async function summariseHeadFacets(db: Db, datasetId: string, floor: number): Promise<boolean> {
  return db.transaction().execute((trx) => summariseHeadFacetsIn(trx, datasetId, floor));
}

/** summariseHeadFacets in the caller's transaction. */
export async function summariseHeadFacetsIn(trx: Db, datasetId: string, floor: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`select d.head_version_id as id from datasets d
    where d.id = ${datasetId}::uuid and d.head_version_id is not null
      and not exists (select 1 from version_facets f where f.version_id = d.head_version_id)
      and pg_try_advisory_xact_lock(hashtext(${LOCK_PREFIX} || d.head_version_id::text))`.execute(trx);
  const head = rows[0]?.id;
  if (!head) return false;
  // Checked again under the lock: a writer that committed after this transaction's first look has written them.
  const { rows: written } = await sql`select 1 from version_facets where version_id = ${head}::uuid`.execute(trx);
  if (written.length > 0) return false;
  await writeFacets(trx, head, floor);
  await writeListAnchors(trx, head);
  return true;
}

/** Summarises the facets of one dataset head without them (its job lost, or written before they existed); returns whether one was found. */
export async function summariseOneHeadFacets(db: Db, floor: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`select d.id from datasets d
    where d.head_version_id is not null and not exists (select 1 from version_facets f where f.version_id = d.head_version_id)
    order by d.id`.execute(db);
  for (const { id } of rows) if (await summariseHeadFacets(db, id, floor)) return true;
  return false;
}
