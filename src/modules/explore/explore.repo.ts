import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { bytesToVector } from '../../adapters/vectors/vector-bytes.js';
import type { FieldTypes } from '../../core/custom-fields.js';
import { type ExploreFilters, type IssueType, isEmptyFilters } from '../../core/vql.js';
import { flaggedObjectScores, objectFlagged, objectScores } from '../label-errors/label-errors.repo.js';
import { summaryState, versionRowsOf } from '../versions/cluster-summaries.js';
import { clusterColumn } from './cluster-column.js';
import { CLUSTERS_PER_PAGE, candidatesJoin, candidatesWhere, clusterPage, mediaJoin, versionRows } from './cluster-page.js';
import { filtersSql } from './explore-filters.js';
import { versionIssuesOf } from './quality-issues.js';
import type { ExplorePageQuery, ExploreRow, MatchCounts, ObjectRow } from './explore-rows.js';

/** The label errors an OBJECTS page asks of each object (its own scores, not its media's). */
const OBJECT_FLAGS: Partial<Record<IssueType, 'is_mislabel' | 'is_class_outlier'>> = { mislabels: 'is_mislabel', class_outliers: 'is_class_outlier' };

/** The object flag an OBJECTS page reads its objects from the run's scores by (objectsOf), if a filter asks for one. */
function drivingFlag(f: ExploreFilters): IssueType | undefined {
  return f.issues.find(({ issue, mode }) => mode === 'in' && OBJECT_FLAGS[issue])?.issue;
}

/** Reads a version's clusters for Explore; the only place that turns filters into SQL. */
export class ExploreRepo {
  constructor(private readonly db: Db) {}

  /** One page of clusters (largest first unless sorted otherwise) with up to `previewsLimit` members each, best first. */
  page(q: ExplorePageQuery): Promise<{ rows: ExploreRow[]; totalClusters: number }> {
    return clusterPage(this.db, q);
  }

  /** How many media (and of which kind, in how many clusters at `level`) Explore would list for these filters. */
  async count(q: Pick<ExplorePageQuery, 'versionId' | 'level' | 'filters' | 'candidates'>): Promise<MatchCounts> {
    const cluster = clusterColumn(q.level);
    if (!q.candidates && isEmptyFilters(q.filters)) {
      const summary = await summaryState(this.db, q.versionId);
      const [media, images] = [summary?.n_media[q.level], summary?.n_images[q.level]];
      // Videos are counted by their distinct frames' parents, which the summaries cannot add up: only without frames.
      if (summary && media === images) return { n_media: media!, n_images: images!, n_video_frames: 0, n_videos: 0, n_clusters: summary.n_clusters[q.level]! };
    }
    const candidates = candidatesJoin(q.candidates);
    const { rows } = await sql<MatchCounts>`
      select count(*)::int as n_media, count(*) filter (where m.media_type = 'IMAGE')::int as n_images,
        count(*) filter (where m.media_type = 'VIDEO_FRAME')::int as n_video_frames, count(distinct m.parent_media_id)::int as n_videos,
        count(distinct ${cluster})::int as n_clusters
      from ${versionRows(q.versionId)} ${await mediaJoin(this.db, q.versionId, q.level, q.filters)} ${candidates}
      where vm.version_id = ${q.versionId}::uuid and ${cluster} is not null and m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${candidatesWhere(q.candidates)}
        and ${this.where(q.filters, q.versionId)}`.execute(this.db);
    return rows[0]!;
  }

  /** As count(), for entity_type OBJECTS: the media holding matching objects, and the object clusters at `level`. */
  async countObjects(q: Pick<ExplorePageQuery, 'versionId' | 'level' | 'filters' | 'candidates'>): Promise<MatchCounts> {
    const candidates = candidatesJoin(q.candidates);
    const { rows } = await sql<MatchCounts>`
      select count(distinct vm.media_id)::int as n_media, count(distinct vm.media_id) filter (where m.media_type = 'IMAGE')::int as n_images,
        count(distinct vm.media_id) filter (where m.media_type = 'VIDEO_FRAME')::int as n_video_frames,
        count(distinct m.parent_media_id)::int as n_videos, count(distinct o -> 'clusters' ->> ${q.level}::int)::int as n_clusters
      from ${this.objectsOf(q, candidates)}
      where vm.version_id = ${q.versionId}::uuid and vm.objects is not null and m.media_type in ('IMAGE', 'VIDEO_FRAME')
        and o -> 'clusters' is not null and ${this.objectWhere(q.filters, q.versionId)}`.execute(this.db);
    return rows[0]!;
  }

  /**
   * One page of object clusters (entity_type OBJECTS): every detected object of the version's matching
   * media, grouped by its object cluster at `level`, largest first, members by detection score.
   */
  async objectPage(q: Omit<ExplorePageQuery, 'sort'>): Promise<{ rows: ObjectRow[]; totalClusters: number }> {
    const candidates = candidatesJoin(q.candidates);
    const relevance = q.candidates ? sql`c.score` : sql`null::real`;
    const result = await sql<ObjectRow & { total_clusters: string }>`
      with matched as (
        select (o -> 'clusters' ->> ${q.level}::int)::uuid as cluster_id, vm.media_id, m.media_type, m.file_name, m.width, m.height,
          m.thumb_hash, m.parent_media_id, m.frame_timestamp, vm.uniqueness_score, vm.is_outlier, vm.duplicate_group, m.quality_flags,
          vm.tags, ${relevance} as relevance, vm.caption, 1 as n_objects, array[o ->> 'label'] as object_labels,
          o ->> 'object_id' as object_id, o ->> 'label' as label, (o ->> 'score')::real as score, o -> 'box' as box, o ->> 'caption' as object_caption,
          le.suggested_label, coalesce(le.is_mislabel, false) as is_mislabel, coalesce(le.is_class_outlier, false) as is_class_outlier
        from ${this.objectsOf(q, candidates)}
        left join lateral ${objectScores(sql`o`, sql`${q.versionId}::uuid`)} le on true
        where vm.version_id = ${q.versionId}::uuid and vm.objects is not null and m.media_type in ('IMAGE', 'VIDEO_FRAME')
          and o -> 'clusters' is not null and ${this.objectWhere(q.filters, q.versionId)}
      ),
      clusters as (
        select cluster_id, count(distinct media_id)::int as cluster_size, count(distinct media_id) filter (where media_type = 'IMAGE')::int as n_images,
          count(distinct parent_media_id)::int as n_videos, count(*)::int as cluster_objects, count(*) over () as total_clusters
        from matched group by cluster_id
        order by cluster_objects desc, cluster_id
        limit ${CLUSTERS_PER_PAGE} offset ${q.page * CLUSTERS_PER_PAGE}
      ),
      ranked as (
        select m.*, c.cluster_size, c.n_images, c.n_videos, c.cluster_objects, c.total_clusters,
          row_number() over (partition by m.cluster_id order by m.score desc, m.object_id) as position
        from matched m join clusters c using (cluster_id)
      )
      select r.*, ${versionIssuesOf(sql`r.media_id`, sql`${q.versionId}::uuid`)} as version_issues from ranked r where r.position <= ${q.previewsLimit}
      order by r.cluster_objects desc, r.cluster_id, r.position`.execute(this.db);
    const totalClusters = result.rows.length > 0 ? Number(result.rows[0]!.total_clusters) : 0;
    return { rows: result.rows, totalClusters };
  }

  /**
   * The objects `o` a page or count reads, with their version rows `vm` and media `m`: every object of the version, or,
   * when a filter asks for objects that label errors flagged, only those the run flagged, from its scores (a flagged
   * object's own row looked up by its media, `offset 0` keeping the planner from joining the whole version instead):
   * O(flagged) rather than a pass over every object of the version.
   */
  private objectsOf(q: Pick<ExplorePageQuery, 'versionId' | 'filters'>, candidates: RawBuilder<unknown>): RawBuilder<unknown> {
    const asked = drivingFlag(q.filters);
    if (!asked) return sql`version_media vm join media m on m.id = vm.media_id ${candidates} cross join jsonb_array_elements(vm.objects) o`;
    const version = sql`${q.versionId}::uuid`;
    return sql`${flaggedObjectScores(version, [OBJECT_FLAGS[asked]!])} s
      cross join lateral (select * from version_media v where v.version_id = ${version} and v.media_id = s.media_id offset 0) vm
      join media m on m.id = vm.media_id ${candidates}
      cross join lateral (select e.o from jsonb_array_elements(vm.objects) e(o) where e.o ->> 'object_id' = s.object_id::text and e.o ->> 'label' = s.label) o`;
  }

  /**
   * For objects `o` of the media: a label filter and a label error (mislabels, class_outliers: the objects run's flags)
   * are about the object itself, every other filter about its media.
   */
  private objectWhere(f: ExploreFilters, versionId: string): RawBuilder<boolean> {
    const labels = f.labels.map((any) => sql`o ->> 'label' = any(${any}::text[])`);
    const driving = drivingFlag(f);
    const own = f.issues.flatMap(({ issue, mode }) => {
      const flag = OBJECT_FLAGS[issue];
      // objectsOf read only the objects that carry it.
      if (!flag || (issue === driving && mode === 'in')) return [];
      const has = objectFlagged(sql`o`, flag, sql`${versionId}::uuid`);
      return [mode === 'in' ? has : sql<boolean>`not ${has}`];
    });
    const ofMedia = { ...f, labels: [], issues: f.issues.filter(({ issue }) => !OBJECT_FLAGS[issue]) };
    return sql<boolean>`(${sql.join([this.where(ofMedia, versionId), ...labels, ...own], sql` and `)})`;
  }

  /** Over the version's rows `vm`: see filtersSql. */
  private where(f: ExploreFilters, versionId: string): RawBuilder<boolean> {
    return filtersSql(f, versionId);
  }

  /** The texts of the version's media for an in-process semantic ranking, after the SQL filters. */
  async texts(versionId: string, filters: ExploreFilters, limit: number): Promise<Array<{ media_id: string; text: string }>> {
    const result = await sql<{ media_id: string; text: string }>`
      select vm.media_id, m.file_name as text from version_media vm join media m on m.id = vm.media_id
      where vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${this.where(filters, versionId)}
      limit ${limit}`.execute(this.db);
    return result.rows;
  }

  /** The custom fields a version's media may carry, and their types. */
  async fieldTypes(versionId: string): Promise<FieldTypes> {
    const row = await this.db.selectFrom('versions').select('field_types').where('id', '=', versionId).executeTakeFirst();
    return (row?.field_types ?? {}) as FieldTypes;
  }

  async versionIndex(versionId: string) {
    const row = await this.db.selectFrom('version_indexes').selectAll().where('version_id', '=', versionId).executeTakeFirst();
    return row ? { ...row, mean: bytesToVector(row.mean) } : undefined;
  }

  /** A media item's raw embedding and its ordinal in the version's index. */
  async mediaVector(versionId: string, mediaId: string, model: string) {
    const row = await sql<{ ordinal: number | null; vector: Buffer | null }>`
      select vm.ordinal, e.vector from version_media vm
      left join media_embeddings e on e.media_id = vm.media_id and e.model = ${model}
      where vm.version_id = ${versionId}::uuid and vm.media_id = ${mediaId}::uuid`.execute(this.db);
    const found = row.rows[0];
    return found ? { ordinal: found.ordinal, vector: found.vector ? bytesToVector(found.vector) : null } : undefined;
  }

  /** Read from the version's rows alone: through version_media it merged every tag and field row of the version. */
  async mediaIdsAt(versionId: string, ordinals: Int32Array): Promise<Map<number, string>> {
    const result = await sql<{ ordinal: number; media_id: string }>`
      select ordinal, media_id from ${await versionRowsOf(this.db, versionId)} w where w.ordinal = any(${Array.from(ordinals)}::int[])`.execute(this.db);
    return new Map(result.rows.map((r) => [r.ordinal, r.media_id]));
  }

  async duplicates(versionId: string, mediaId: string): Promise<string[] | undefined> {
    const own = await this.db
      .selectFrom('version_media')
      .select('duplicate_group')
      .where('version_id', '=', versionId)
      .where('media_id', '=', mediaId)
      .executeTakeFirst();
    if (!own) return undefined;
    if (!own.duplicate_group) return [];
    const rows = await this.db
      .selectFrom('version_media')
      .select('media_id')
      .where('version_id', '=', versionId)
      .where('duplicate_group', '=', own.duplicate_group)
      .where('media_id', '!=', mediaId)
      .orderBy('media_id')
      .execute();
    return rows.map((r) => r.media_id);
  }

  async insertAnchor(values: { dataset_id: string; model: string; vector: Buffer; file_name: string; created_by: string }): Promise<string> {
    await this.db.deleteFrom('similarity_anchors').where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
    const { id } = await this.db.insertInto('similarity_anchors').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async anchor(datasetId: string, anchorId: string) {
    const row = await this.db.selectFrom('similarity_anchors').selectAll().where('id', '=', anchorId).where('dataset_id', '=', datasetId).executeTakeFirst();
    return row ? { model: row.model, vector: bytesToVector(row.vector) } : undefined;
  }
}
