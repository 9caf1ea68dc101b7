import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';
import type { FieldMapping } from 'pg-copy-streams-binary';
import { copyRows } from '../../adapters/db/binary-copy.js';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { EmbeddingConfig } from '../../adapters/db/schema.js';
import { bytesInto } from '../../adapters/vectors/vector-bytes.js';
import type { ExploreFilters } from '../../core/vql.js';
import { filtersSql } from '../explore/explore-filters.js';
import { wideRows } from '../versions/cluster-summaries.js';
import { ROW_COLUMNS } from '../versions/versions.repo.js';

/** The media a selection chooses among, read from a version: its embeddings (in media-id order), and their clusters at a level. */
export interface SelectionPool {
  mediaIds: string[];
  /** n × dimensions on a SharedArrayBuffer, for the selection's threads. */
  vectors: Float32Array;
  /** Dense labels (0…c−1) of the clusters at the level asked for; empty when none was. */
  clusters: Int32Array;
}

const POOL_ROW: FieldMapping[] = [
  { key: 'media_id', type: 'text' },
  { key: 'cluster', type: 'text' },
  { key: 'vector', type: 'bytea' },
];

/** Selections: the pool of a version's images and frames (an Explore query narrows it), the uncertain order, and a selection's clone. */
export class SelectionRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  /** The version's images and frames the filters keep, as a query of media_id, the cluster at `level` and the custom fields. */
  private poolQuery(versionId: string, filters: ExploreFilters | null, level: number | null, excludeTags: string[] = []): RawBuilder<unknown> {
    const untagged = excludeTags.length > 0 ? sql`and not (vm.tags && ${excludeTags}::text[])` : sql``;
    const cluster = level === null ? sql`null::uuid` : sql.ref(`vm.cluster_l${level}`);
    return sql`select vm.media_id, ${cluster} as cluster, vm.custom_fields from version_media vm join media m on m.id = vm.media_id
      where vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME') and ${filters ? filtersSql(filters, versionId) : sql`true`} ${untagged}`;
  }

  /** How many media a selection may choose among: with an embedding of `model` (diverse, representative), or any (uncertain). */
  async countPool(versionId: string, filters: ExploreFilters | null, excludeTags: string[], model: string | null): Promise<number> {
    await setWorkMem(this.db, '64MB');
    const embedded = model ? sql`join media_embeddings e on e.media_id = p.media_id and e.model = ${model}` : sql``;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (${this.poolQuery(versionId, filters, null, excludeTags)}) p ${embedded}`.execute(this.db);
    return rows[0]!.n;
  }

  /**
   * The pool's embeddings in media-id order, with their clusters at `level`: the pool is written to a temporary table on
   * one connection, then its vectors come by one binary COPY (as the index job reads them: bytes as stored).
   */
  async loadPool(versionId: string, filters: ExploreFilters | null, excludeTags: string[], level: number | null, model: string, dimensions: number, signal: AbortSignal): Promise<SelectionPool> {
    const client = await this.pool.connect();
    let failed = false;
    try {
      const create = sql`create temporary table selection_pool as ${this.poolQuery(versionId, filters, level, excludeTags)}`.compile(this.db);
      await client.query('drop table if exists pg_temp.selection_pool');
      await client.query(create.sql, create.parameters as unknown[]);
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from selection_pool`);
      const total = Number(rows[0]!.n);
      const vectors = new Float32Array(new SharedArrayBuffer(Math.max(1, total * dimensions * 4)));
      const mediaIds: string[] = [];
      const labels: number[] = [];
      const labelOf = new Map<string, number>();
      const query = `select p.media_id::text, p.cluster::text, e.vector from selection_pool p
        join media_embeddings e on e.media_id = p.media_id and e.model = ${quote(model)} order by p.media_id`;
      for await (const row of copyRows<{ media_id: string; cluster: string | null; vector: Buffer }>(client, query, POOL_ROW, signal)) {
        if (mediaIds.length >= total || row.vector.byteLength !== dimensions * 4) throw new Error(`embedding of ${row.media_id} does not have ${dimensions} dimensions`);
        bytesInto(row.vector, vectors, mediaIds.length * dimensions);
        if (level !== null) {
          const key = row.cluster ?? `media:${row.media_id}`;
          let label = labelOf.get(key);
          if (label === undefined) labelOf.set(key, (label = labelOf.size));
          labels.push(label);
        }
        mediaIds.push(row.media_id);
      }
      await client.query('drop table if exists pg_temp.selection_pool');
      const n = mediaIds.length;
      return { mediaIds, vectors: n === total ? vectors : copyShared(vectors, n * dimensions), clusters: Int32Array.from(labels) };
    } catch (err) {
      failed = true;
      throw signal.aborted ? signal.reason : err;
    } finally {
      // A COPY cut short leaves the connection mid-protocol (and a temporary table): it is dropped, not reused.
      client.release(failed);
    }
  }

  /** uncertain: the pool's media by a numeric custom field, highest first (`asc`: lowest), media without a value last. */
  async byField(versionId: string, filters: ExploreFilters | null, excludeTags: string[], field: string, order: 'asc' | 'desc', n: number): Promise<string[]> {
    await setWorkMem(this.db, '64MB');
    const value = sql`case when jsonb_typeof(p.custom_fields -> ${field}::text) = 'number' then (p.custom_fields ->> ${field}::text)::float8 end`;
    const { rows } = await sql<{ media_id: string }>`select p.media_id from (${this.poolQuery(versionId, filters, null, excludeTags)}) p
      order by ${value} ${sql.raw(order)} nulls last, p.media_id limit ${n}`.execute(this.db);
    return rows.map((r) => r.media_id);
  }

  /**
   * A clone of a selection, in the task's commit: a new READY dataset (owned by whoever asked) whose first version
   * holds the chosen media's rows as the source head has them (clusters, scores, ordinals: copied, not recomputed),
   * their tags, labels and custom fields, and the head's index (mean and search index, so similarity search works
   * on it, answering only the clone's media). Returns the new dataset's id and version.
   */
  async cloneSelection(trx: Db, clone: { sourceId: string; headId: string; name: string; ownerId: string; embedding: EmbeddingConfig | null; mediaIds: string[] }): Promise<{ datasetId: string; versionId: string }> {
    const source = await trx.selectFrom('datasets').select(['description', 'snapshots_enabled']).where('id', '=', clone.sourceId).executeTakeFirstOrThrow();
    const dataset = await trx
      .insertInto('datasets')
      .values({
        display_name: clone.name,
        description: source.description,
        owner_id: clone.ownerId,
        status_new: 'READY',
        fatal_error_msg: null,
        source_dataset_id: clone.sourceId,
        snapshots_enabled: source.snapshots_enabled,
        embedding_config: clone.embedding ? JSON.stringify(clone.embedding) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const head = await trx.selectFrom('versions').select('field_types').where('id', '=', clone.headId).executeTakeFirstOrThrow();
    const version = await trx
      .insertInto('versions')
      .values({ dataset_id: dataset.id, parent_id: null, task_id: null, base_id: null, field_types: JSON.stringify(head.field_types ?? {}) as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = await trx.selectFrom('version_bases').select('base_id').where('version_id', '=', clone.headId).executeTakeFirst();
    const columns = sql.raw(ROW_COLUMNS.join(', '));
    const picked = sql`(select unnest(${clone.mediaIds}::uuid[]) as media_id)`;
    await sql`insert into version_rows (version_id, ${columns}) select ${version.id}::uuid, ${sql.raw(ROW_COLUMNS.map((c) => `s.${c}`).join(', '))}
      from ${wideRows(clone.headId, base?.base_id ?? null)} s join ${picked} p on p.media_id = s.media_id`.execute(trx);
    await sql`insert into annotation_rows (version_id, media_id, tags, label) select ${version.id}::uuid, a.media_id, a.tags, a.label
      from version_annotations a join ${picked} p on p.media_id = a.media_id where a.version_id = ${clone.headId}::uuid`.execute(trx);
    await sql`insert into field_rows (version_id, media_id, custom_fields) select ${version.id}::uuid, f.media_id, f.custom_fields
      from version_fields f join ${picked} p on p.media_id = f.media_id where f.version_id = ${clone.headId}::uuid`.execute(trx);
    await sql`insert into version_indexes (version_id, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params)
      select ${version.id}::uuid, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params from version_indexes where version_id = ${clone.headId}::uuid`.execute(trx);
    return { datasetId: dataset.id, versionId: version.id };
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

function copyShared(from: Float32Array, length: number): Float32Array {
  const to = new Float32Array(new SharedArrayBuffer(Math.max(1, length) * 4));
  to.set(from.subarray(0, length));
  return to;
}
