import { sql } from 'kysely';
import type pg from 'pg';
import type { FieldMapping } from 'pg-copy-streams-binary';
import { copyRowsOf } from '../../adapters/db/binary-copy.js';
import type { Db } from '../../adapters/db/database.js';
import { versionRowsOf } from '../versions/cluster-summaries.js';
import { ownRows } from '../versions/versions.repo.js';
import type { EmbeddingConfig } from '../../adapters/db/schema.js';
import { bytesInto, bytesToVector, resizableFloats, vectorToBytes } from '../../adapters/vectors/vector-bytes.js';
import { type PhashHalves, emptyPhashHalves, setPhash } from './compute-index.js';

export interface VersionVectors {
  mediaIds: string[];
  phashes: PhashHalves;
  vectors: Float32Array;
}

/** One row of index results for a media item of a version. */
export interface IndexResultRows {
  mediaIds: string[];
  ordinals: number[];
  clusters: string[][]; // [level][item]
  uniqueness: number[];
  nearest: Array<number | null>;
  outliers: boolean[];
  duplicateGroups: Array<string | null>;
  /** Positions on the embedding map; null where the map has none. */
  mapX: Array<number | null>;
  mapY: Array<number | null>;
}

/** Rows read between progress reports. */
const PAGE = 5000;

const VECTOR_ROW: FieldMapping[] = [
  { key: 'media_id', type: 'text' },
  { key: 'phash', type: 'text' },
  { key: 'vector', type: 'bytea' },
];

/** Reads a version's vectors and writes its index: clusters and scores on version rows, the rest in version_indexes. */
export class IndexingRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * How many media the version holds: the most embeddings it can have (a video has none; its frames do). Read from
   * the rows' keys alone; counting the embeddings too probed or scanned their table (26.6 s at 1M on a slow disk).
   */
  async countMembers(versionId: string): Promise<number> {
    const row = await sql<{ n: string }>`select count(*) as n from version_members where version_id = ${versionId}::uuid`.execute(this.db);
    return Number(row.rows[0]?.n ?? 0);
  }

  /**
   * The version's embedded media in media-id order (their ordinals), as one binary COPY: PostgreSQL sends each
   * vector's bytes as they are stored, where a paged select sends them as hex text for pg to parse back
   * (200k vectors: 6 s against 25 s). Memory holds only the vectors and ids. `total` is countMembers' answer: room
   * is made for that many, and the arrays returned are views of what was read; the vectors' buffer is resizable
   * (resizableFloats), for the index build to give back as it goes.
   */
  async loadVectors(versionId: string, model: string, dimensions: number, total: number, onPage: (loaded: number) => Promise<void>, signal: AbortSignal): Promise<VersionVectors> {
    const vectors = resizableFloats(total * dimensions);
    const mediaIds: string[] = [];
    const phashes = emptyPhashHalves(total);
    const query = sql`select vm.media_id::text, m.phash, e.vector from version_members vm
      join media_embeddings e on e.media_id = vm.media_id and e.model = ${sql.lit(model)}
      join media m on m.id = vm.media_id
      where vm.version_id = ${sql.lit(versionId)}::uuid
      order by vm.media_id`.compile(this.db).sql;
    for await (const row of copyRowsOf<{ media_id: string; phash: string | null; vector: Buffer }>(this.pool, query, VECTOR_ROW, signal)) {
      if (mediaIds.length >= total || row.vector.byteLength !== dimensions * 4) throw new Error(`embedding of ${row.media_id} does not have ${dimensions} dimensions`);
      bytesInto(row.vector, vectors, mediaIds.length * dimensions);
      setPhash(phashes, mediaIds.length, row.phash);
      mediaIds.push(row.media_id);
      if (mediaIds.length % PAGE === 0) await onPage(mediaIds.length);
    }
    await onPage(mediaIds.length);
    const n = mediaIds.length;
    // Views, not copies: a copy of a million vectors would hold them twice.
    return { mediaIds, phashes: { hi: phashes.hi.subarray(0, n), lo: phashes.lo.subarray(0, n), has: phashes.has.subarray(0, n) }, vectors: vectors.subarray(0, n * dimensions) };
  }

  /** Writes a slice of results onto the version's own rows (a full version, or the new rows of a delta). */
  async writeResults(trx: Db, versionId: string, rows: IndexResultRows): Promise<void> {
    const [l0, l1, l2, l3, l4] = rows.clusters;
    await sql`update version_rows vm set
        ordinal = r.ordinal, cluster_l0 = r.l0, cluster_l1 = r.l1, cluster_l2 = r.l2, cluster_l3 = r.l3, cluster_l4 = r.l4,
        uniqueness_score = r.uniqueness, nn_similarity = r.nearest, is_outlier = r.outlier, duplicate_group = r.dup,
        map_x = r.map_x, map_y = r.map_y
      from unnest(${rows.mediaIds}::uuid[], ${rows.ordinals}::int[], ${l0}::uuid[], ${l1}::uuid[], ${l2}::uuid[], ${l3}::uuid[], ${l4}::uuid[],
                  ${rows.uniqueness}::real[], ${rows.nearest}::real[], ${rows.outliers}::boolean[], ${rows.duplicateGroups}::uuid[],
                  ${rows.mapX}::real[], ${rows.mapY}::real[])
        as r(media_id, ordinal, l0, l1, l2, l3, l4, uniqueness, nearest, outlier, dup, map_x, map_y)
      where vm.version_id = ${versionId}::uuid and vm.media_id = r.media_id`.execute(trx);
  }

  /**
   * Whether the version's rows hold an index's results (its fork copied them, or an earlier attempt wrote them).
   * Every index gives its media ordinals, so their partial index answers this without reading the rows.
   */
  async hasResults(trx: Db, versionId: string): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from version_rows
      where version_id = ${versionId}::uuid and ordinal is not null) as found`.execute(trx);
    return rows[0]!.found;
  }

  /** Before a (re)write: no media keeps results from an earlier attempt or an earlier index. */
  async clearResults(trx: Db, versionId: string): Promise<void> {
    await sql`update version_rows set ordinal = null, cluster_l0 = null, cluster_l1 = null, cluster_l2 = null, cluster_l3 = null,
        cluster_l4 = null, uniqueness_score = null, nn_similarity = null, is_outlier = false, duplicate_group = null,
        map_x = null, map_y = null
      where version_id = ${versionId}::uuid`.execute(trx);
  }

  /**
   * A video takes the clusters of its first indexed frame, so it is found (and exported) with them. Given the frames
   * just attached, only their videos are touched; else every video of the version is.
   */
  async videosFollowFrames(trx: Db, versionId: string, frameIds?: string[]): Promise<void> {
    if (frameIds?.length === 0) return;
    const rows = await versionRowsOf(trx, versionId);
    const batch = frameIds ? sql`and fm.media_id = any(${frameIds}::uuid[])` : sql``;
    await sql`update version_rows v set cluster_l0 = f.cluster_l0, cluster_l1 = f.cluster_l1, cluster_l2 = f.cluster_l2,
        cluster_l3 = f.cluster_l3, cluster_l4 = f.cluster_l4
      from (
        select distinct on (fr.parent_media_id) fr.parent_media_id as video_id,
          fm.cluster_l0, fm.cluster_l1, fm.cluster_l2, fm.cluster_l3, fm.cluster_l4
        from ${rows} fm join media fr on fr.id = fm.media_id
        where fr.parent_media_id is not null and fm.cluster_l0 is not null ${batch}
        order by fr.parent_media_id, fr.frame_timestamp) f
      where v.version_id = ${versionId}::uuid and v.media_id = f.video_id`.execute(trx);
  }

  /** Writes the version's index row; returns the blobs the row it replaced named and this one does not. */
  async saveIndex(
    trx: Db,
    row: { versionId: string; model: string; dimensions: number; itemCount: number; mean: Float32Array; annBlobHash: string | null; graphBlobHash: string | null; params: Record<string, unknown> },
  ): Promise<string[]> {
    const previous = await trx.selectFrom('version_indexes').select(['ann_blob_hash', 'graph_blob_hash']).where('version_id', '=', row.versionId).executeTakeFirst();
    await trx.deleteFrom('version_indexes').where('version_id', '=', row.versionId).execute();
    await trx
      .insertInto('version_indexes')
      .values({
        version_id: row.versionId,
        model: row.model,
        dimensions: row.dimensions,
        item_count: row.itemCount,
        mean: vectorToBytes(row.mean),
        ann_blob_hash: row.annBlobHash,
        graph_blob_hash: row.graphBlobHash,
        params: JSON.stringify(row.params),
      })
      .execute();
    const kept = new Set([row.annBlobHash, row.graphBlobHash]);
    return [previous?.ann_blob_hash, previous?.graph_blob_hash].filter((h): h is string => !!h && !kept.has(h));
  }

  /** The index a version starts from: its own once written, else its parent's (the head it was forked from). */
  async baseIndex(versionId: string) {
    const row = await sql<{ model: string; dimensions: number; item_count: number; mean: Buffer; ann_blob_hash: string | null; graph_blob_hash: string | null; params: Record<string, unknown> }>`
      select i.model, i.dimensions, i.item_count, i.mean, i.ann_blob_hash, i.graph_blob_hash, i.params
      from versions v join version_indexes i on i.version_id = v.id or i.version_id = v.parent_id
      where v.id = ${versionId}::uuid
      order by (i.version_id = v.id) desc limit 1`.execute(this.db);
    const found = row.rows[0];
    return found ? { ...found, mean: bytesToVector(found.mean) } : undefined;
  }

  /** Embedded media of the version not in its index yet, in media-id order. */
  async unindexedMedia(versionId: string, model: string) {
    const rows = await sql<{ media_id: string; vector: Buffer; phash: string | null }>`
      select vm.media_id, e.vector, m.phash from ${await versionRowsOf(this.db, versionId)} vm
      join media_embeddings e on e.media_id = vm.media_id and e.model = ${model}
      join media m on m.id = vm.media_id
      where vm.ordinal is null
      order by vm.media_id`.execute(this.db);
    return rows.rows.map((r) => ({ mediaId: r.media_id, vector: bytesToVector(r.vector), phash: r.phash }));
  }

  /** Reads the clusters, duplicate group and hash of a version's items by ordinal (their version rows, by index). */
  async neighbourReader(versionId: string) {
    const rows = await versionRowsOf(this.db, versionId);
    return async (ordinals: number[]) => {
      if (ordinals.length === 0) return [];
      const found = await sql<{ ordinal: number; media_id: string; phash: string | null; duplicate_group: string | null; l0: string; l1: string; l2: string; l3: string; l4: string; map_x: number | null; map_y: number | null }>`
        select vm.ordinal, vm.media_id, m.phash, vm.duplicate_group, vm.cluster_l0 as l0, vm.cluster_l1 as l1, vm.cluster_l2 as l2,
          vm.cluster_l3 as l3, vm.cluster_l4 as l4, vm.map_x, vm.map_y
        from ${rows} vm join media m on m.id = vm.media_id
        where vm.ordinal = any(${ordinals}::int[])`.execute(this.db);
      return found.rows.map((r) => ({ ordinal: r.ordinal, mediaId: r.media_id, phash: r.phash, duplicateGroup: r.duplicate_group, clusters: [r.l0, r.l1, r.l2, r.l3, r.l4], map: r.map_x === null || r.map_y === null ? null : { x: r.map_x, y: r.map_y } }));
    };
  }

  /** Media that gained a near-duplicate: their level-0 cluster becomes their duplicate group. */
  async markDuplicates(trx: Db, versionId: string, mediaIds: string[]): Promise<void> {
    if (mediaIds.length === 0) return;
    await ownRows(trx, versionId, mediaIds);
    await sql`update version_rows set duplicate_group = cluster_l0
      where version_id = ${versionId}::uuid and media_id = any(${mediaIds}::uuid[]) and duplicate_group is null`.execute(trx);
  }

  async setEmbeddingConfig(trx: Db, datasetId: string, config: EmbeddingConfig): Promise<void> {
    await trx.updateTable('datasets').set({ embedding_config: JSON.stringify(config) }).where('id', '=', datasetId).execute();
  }
}
