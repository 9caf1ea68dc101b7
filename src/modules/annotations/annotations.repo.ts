import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { ExploreFilters } from '../../core/vql.js';
import { clusterColumn } from '../explore/cluster-column.js';
import { filtersSql } from '../explore/explore-filters.js';
import { FULL_SET_FLOOR, TAGS_AND_LABELS, rewriteAnnotations } from '../versions/version-annotations.js';
import { missingMedia, rewriteRows } from '../versions/versions.repo.js';

/** Which media an edit applies to: listed ids, whole clusters (at any level), or what an Explore query matches. */
export type MediaPick =
  /** Each media once (lower case): unnest of the ids is then estimated right, where a distinct over it was guessed at 200 rows. */
  | { kind: 'ids'; ids: string[] }
  | { kind: 'clusters'; ids: string[] }
  | { kind: 'query'; filters: ExploreFilters }
  | { kind: 'objects'; ids: string[] };

export type AnnotationChange =
  | { kind: 'add_tags'; tags: string[] }
  | { kind: 'remove_tags'; tags: string[] }
  | { kind: 'set_label'; label: string | null }
  /** The objects' class; null gives each its detected class back (kept as detected_label once changed). */
  | { kind: 'set_object_label'; objectIds: string[]; label: string | null };

const LEVELS = [0, 1, 2, 3, 4] as const;

/** Tags and labels on a version's rows: selections, edits (copy on write), counts, propagation. */
export class AnnotationsRepo {
  constructor(
    private readonly db: Db,
    /** config.fullSetFloor (see FULL_SET_FLOOR). */
    private readonly fullSetFloor = FULL_SET_FLOOR,
  ) {}

  /** The media of `pick` in the version, each once, as a query of `media_id`. */
  picked(versionId: string, pick: MediaPick): RawBuilder<unknown> {
    switch (pick.kind) {
      case 'ids':
        return sql`select media_id from unnest(${pick.ids}::uuid[]) as media_id`;
      case 'clusters':
        return sql`${sql.join(
          LEVELS.map(
            (level) => sql`select media_id from version_media where version_id = ${versionId}::uuid and ${sql.ref(`cluster_l${level}`)} = any(${pick.ids}::uuid[])`,
          ),
          sql` union `,
        )}`;
      case 'query':
        return sql`select vm.media_id from version_media vm join media m on m.id = vm.media_id
          where vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${filtersSql(pick.filters, versionId)}`;
      case 'objects':
        return sql`select distinct vm.media_id from version_media vm cross join jsonb_array_elements(vm.objects) o
          where vm.version_id = ${versionId}::uuid and vm.objects is not null and o ->> 'object_id' = any(${pick.ids}::text[])`;
    }
  }

  /** Of `ids`, the detected objects the version does not have. */
  async unknownObjects(trx: Db, versionId: string, ids: string[]): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`select id from unnest(${ids}::text[]) id
      except select o ->> 'object_id' from version_media vm cross join jsonb_array_elements(vm.objects) o
        where vm.version_id = ${versionId}::uuid and vm.objects is not null
      order by 1 limit 100`.execute(trx);
    return rows.map((r) => r.id);
  }

  /** Listed ids are all media of the version once requireKnown has passed: counted without reading rows. */
  async countPicked(trx: Db, versionId: string, pick: MediaPick): Promise<number> {
    if (pick.kind === 'ids' || pick.kind === 'objects') return pick.ids.length;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from version_media
      where version_id = ${versionId}::uuid and media_id in (${this.picked(versionId, pick)})`.execute(trx);
    return rows[0]!.n;
  }

  /**
   * Applies the change, picked in `fromId`, to the media it changes, into `toId` (just forked from `fromId`:
   * annotations written here, detected objects copied on write). Returns how many changed.
   */
  async apply(trx: Db, fromId: string, toId: string, pick: MediaPick, change: AnnotationChange): Promise<number> {
    await setWorkMem(trx, '64MB');
    const source = this.picked(fromId, pick);
    switch (change.kind) {
      case 'add_tags':
        return rewriteAnnotations(trx, TAGS_AND_LABELS, fromId, toId, source, { tags: sql`array(select distinct t from unnest(a.tags || ${change.tags}::text[]) t order by t)` }, sql`not (a.tags @> ${change.tags}::text[])`, undefined, this.fullSetFloor);
      case 'remove_tags':
        return rewriteAnnotations(trx, TAGS_AND_LABELS, fromId, toId, source, { tags: sql`array(select t from unnest(a.tags) t where t <> all(${change.tags}::text[]) order by t)` }, sql`a.tags && ${change.tags}::text[]`, undefined, this.fullSetFloor);
      case 'set_label':
        return rewriteAnnotations(trx, TAGS_AND_LABELS, fromId, toId, source, { label: sql`${change.label}::text` }, sql`a.label is distinct from ${change.label}::text`, undefined, this.fullSetFloor);
      case 'set_object_label': {
        const ids = sql`${change.objectIds}::text[]`;
        const detected = sql`coalesce(o ->> 'detected_label', o ->> 'label')`;
        const target = sql`coalesce(${change.label}::text, ${detected})`;
        const relabelled =
          change.label === null
            ? sql`(o - 'detected_label') || jsonb_build_object('label', ${detected})`
            : sql`o || jsonb_build_object('label', ${change.label}::text, 'detected_label', ${detected})`;
        const objects = sql`(select jsonb_agg(case when o ->> 'object_id' = any(${ids}) then ${relabelled} else o end order by n)
          from jsonb_array_elements(vm.objects) with ordinality as t(o, n))`;
        const differs = sql<boolean>`exists (select 1 from jsonb_array_elements(vm.objects) o where o ->> 'object_id' = any(${ids}) and o ->> 'label' is distinct from ${target})`;
        return rewriteRows(trx, toId, source, { objects }, differs);
      }
    }
  }

  /** Of `ids`, those that are not media of the version. */
  unknownMedia(trx: Db, versionId: string, ids: string[]): Promise<string[]> {
    return missingMedia(trx, versionId, ids);
  }

  /** Of `ids`, those that are no cluster of the version at any level. */
  async unknownClusters(trx: Db, versionId: string, ids: string[]): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`select distinct id from unnest(${ids}::uuid[]) id
      except
      select c from version_media vm, unnest(array[vm.cluster_l0, vm.cluster_l1, vm.cluster_l2, vm.cluster_l3, vm.cluster_l4]) c
      where vm.version_id = ${versionId}::uuid and c = any(${ids}::uuid[])
      order by id`.execute(trx);
    return rows.map((r) => r.id);
  }

  async counts(trx: Db, datasetId: string): Promise<{ n_images: number; n_videos: number }> {
    return trx.selectFrom('datasets').select(['n_images', 'n_videos']).where('id', '=', datasetId).executeTakeFirstOrThrow();
  }

  async tagCounts(versionId: string): Promise<Array<{ tag: string; count: number }>> {
    const { rows } = await sql<{ tag: string; count: number }>`select t as tag, count(*)::int as count
      from version_media vm, unnest(vm.tags) t where vm.version_id = ${versionId}::uuid
      group by t order by count(*) desc, t`.execute(this.db);
    return rows;
  }

  async labelCounts(versionId: string): Promise<{ labels: Array<{ label: string; count: number }>; unlabelled: number }> {
    const { rows } = await sql<{ label: string | null; count: number }>`select vm.label, count(*)::int as count
      from version_media vm join media m on m.id = vm.media_id
      where vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME')
      group by vm.label order by count(*) desc, vm.label`.execute(this.db);
    return {
      labels: rows.filter((r): r is { label: string; count: number } => r.label !== null),
      unlabelled: rows.find((r) => r.label === null)?.count ?? 0,
    };
  }

  /**
   * The clusters at `level` whose labelled members agree on one most frequent label (a tie is ambiguous and
   * left alone), kept in a temporary table for this transaction; returns what propagation would do.
   */
  async planPropagation(trx: Db, versionId: string, level: number): Promise<{ clusters: number; media: number; ambiguous: number }> {
    const cluster = clusterColumn(level);
    await setWorkMem(trx, '64MB');
    await sql`drop table if exists propagation_winners`.execute(trx);
    await sql`create temp table propagation_winners on commit drop as
      with votes as (
        select ${cluster} as cluster_id, vm.label, count(*) as n from version_media vm
        where vm.version_id = ${versionId}::uuid and vm.label is not null and ${cluster} is not null group by 1, 2),
      top as (select cluster_id, label, n, max(n) over (partition by cluster_id) as best from votes)
      select cluster_id, min(label) as label, count(*) = 1 as decided from top where n = best group by cluster_id`.execute(trx);
    await sql`create index on propagation_winners (cluster_id)`.execute(trx);
    const { rows } = await sql<{ clusters: number; media: number; ambiguous: number }>`select
      (select count(*)::int from propagation_winners w where w.decided and exists (select 1 from version_media vm
        where vm.version_id = ${versionId}::uuid and ${cluster} = w.cluster_id and vm.label is null)) as clusters,
      (select count(*)::int from version_media vm join propagation_winners w on w.cluster_id = ${cluster} and w.decided
        where vm.version_id = ${versionId}::uuid and vm.label is null) as media,
      (select count(*)::int from propagation_winners where not decided) as ambiguous`.execute(trx);
    return rows[0]!;
  }

  /**
   * Labels the unlabelled members of the decided clusters of planPropagation over `fromId` (same transaction)
   * into `toId`, just forked from it. Returns how many.
   */
  async propagate(trx: Db, fromId: string, toId: string, level: number): Promise<number> {
    const cluster = clusterColumn(level);
    const source = sql`select vm.media_id, w.label from version_media vm join propagation_winners w on w.cluster_id = ${cluster} and w.decided
      where vm.version_id = ${fromId}::uuid and vm.label is null`;
    return rewriteAnnotations(trx, TAGS_AND_LABELS, fromId, toId, source, { label: sql`p.label` }, sql`a.label is null`, undefined, this.fullSetFloor);
  }
}
