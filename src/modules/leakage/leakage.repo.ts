import { sql } from 'kysely';
import type pg from 'pg';
import type { FieldMapping } from 'pg-copy-streams-binary';
import { copyRowsOf } from '../../adapters/db/binary-copy.js';
import type { Db } from '../../adapters/db/database.js';
import { bytesToVector } from '../../adapters/vectors/vector-bytes.js';
import { TAGS_AND_LABELS, rewriteAnnotations } from '../versions/version-annotations.js';
import type { LeakageComparison } from './leakage-plan.js';

/** A version's index facts, as leakage compares them. */
export interface SideIndex {
  versionId: string;
  model: string;
  dimensions: number;
  itemCount: number;
  mean: Float32Array;
}

/** One streamed media item: its id as 16 bytes, its split value (split mode), its raw vector's bytes. */
export interface SideRow {
  id: Buffer;
  value: string | null;
  vector: Buffer;
}

/** One pair to store: the comparison, both media ids, the similarity. */
export interface PairRows {
  comparisons: number[];
  mediaA: string[];
  mediaB: string[];
  similarities: number[];
}

export interface StoredRun {
  task_id: string;
  dataset_id: string;
  other_dataset_id: string | null;
  split_field: string | null;
  threshold: number;
  tag: string | null;
  comparisons: LeakageComparison[];
  created_at: Date;
}

export interface PairRow {
  comparison: number;
  media_a: string;
  media_b: string;
  similarity: number;
  file_a: string;
  file_b: string;
  thumb_a: boolean;
  thumb_b: boolean;
}

const SIDE_ROW: FieldMapping[] = [
  { key: 'id', type: 'bytea' },
  { key: 'value', type: 'text' },
  { key: 'vector', type: 'bytea' },
];

/** Leakage runs: the sides' vectors streamed, the pairs found stored and paged, the leaked media tagged. */
export class LeakageRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  async sideIndex(versionId: string): Promise<SideIndex | null> {
    const row = await this.db
      .selectFrom('version_indexes')
      .select(['model', 'dimensions', 'item_count', 'mean', 'ann_blob_hash'])
      .where('version_id', '=', versionId)
      .executeTakeFirst();
    return row ? { versionId, model: row.model, dimensions: row.dimensions, itemCount: row.item_count, mean: bytesToVector(row.mean) } : null;
  }

  /** How many media a version holds: room for every vector its side can stream. */
  async countMembers(versionId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>`select count(*) as n from version_members where version_id = ${versionId}::uuid`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** The field's values on the version's media with how many carry each, most first (a split field's splits). */
  async fieldValues(versionId: string, field: string): Promise<Array<{ value: string; count: number }>> {
    const { rows } = await sql<{ value: string; count: number }>`select custom_fields ->> ${field} as value, count(*)::int as count
      from version_fields where version_id = ${versionId}::uuid and custom_fields ->> ${field} is not null
      group by 1 order by 2 desc, 1 limit 1000`.execute(this.db);
    return rows;
  }

  async fieldTypes(versionId: string): Promise<Record<string, string>> {
    const row = await this.db.selectFrom('versions').select('field_types').where('id', '=', versionId).executeTakeFirst();
    return row?.field_types ?? {};
  }

  /**
   * The version's embedded media as one binary COPY (each vector's stored bytes, no parsing), in no particular order
   * (sorting a million rows of 2 KB vectors would spill to disk for nothing); with `split`, only media whose value of
   * its field is one of its values, with that value.
   */
  async *sideRows(versionId: string, model: string, split: { field: string; values: string[] } | null, signal: AbortSignal): AsyncGenerator<SideRow> {
    const value = split ? sql`f.custom_fields ->> ${sql.lit(split.field)}` : sql`null::text`;
    const fields = split
      ? sql`join version_fields f on f.version_id = vm.version_id and f.media_id = vm.media_id
          and f.custom_fields ->> ${sql.lit(split.field)} = any(array[${sql.join(split.values.map((v) => sql.lit(v)))}]::text[])`
      : sql``;
    const query = sql`select uuid_send(vm.media_id), ${value}, e.vector from version_members vm
      join media_embeddings e on e.media_id = vm.media_id and e.model = ${sql.lit(model)}
      ${fields}
      where vm.version_id = ${sql.lit(versionId)}::uuid`.compile(this.db).sql;
    yield* copyRowsOf<SideRow>(this.pool, query, SIDE_ROW, signal);
  }

  /** A rerun starts clean: the pairs of an earlier attempt go. */
  async clearPairs(taskId: string): Promise<void> {
    await this.db.deleteFrom('leakage_pairs' as never).where('task_id' as never, '=', taskId as never).execute();
  }

  /** Stores pairs; one found from both of its ends is kept once. */
  async insertPairs(taskId: string, pairs: PairRows): Promise<void> {
    if (pairs.mediaA.length === 0) return;
    await sql`insert into leakage_pairs (task_id, comparison, media_a, media_b, similarity)
      select ${taskId}::uuid, p.c, p.a, p.b, p.s from unnest(${pairs.comparisons}::int2[], ${pairs.mediaA}::uuid[], ${pairs.mediaB}::uuid[], ${pairs.similarities}::real[]) as p(c, a, b, s)
      on conflict do nothing`.execute(this.db);
  }

  /** Per comparison: the pairs, and the distinct media of each side in them. */
  async pairCounts(trx: Db, taskId: string): Promise<Map<number, { pairs: number; a: number; b: number }>> {
    const { rows } = await sql<{ comparison: number; pairs: number; a: number; b: number }>`select comparison, count(*)::int as pairs,
        count(distinct media_a)::int as a, count(distinct media_b)::int as b
      from leakage_pairs where task_id = ${taskId}::uuid group by comparison`.execute(trx);
    return new Map(rows.map((r) => [r.comparison, { pairs: r.pairs, a: r.a, b: r.b }]));
  }

  /** The media of the pairs' `sides` that are media of the version, each once (a media is in as many pairs as it has copies). */
  private leakedIn(taskId: string, versionId: string, sides: Array<{ comparison: number; side: 'a' | 'b' }>) {
    const parts = sides.map(({ comparison, side }) => sql`select distinct ${sql.ref(side === 'a' ? 'media_a' : 'media_b')} as media_id from leakage_pairs where task_id = ${taskId}::uuid and comparison = ${comparison}`);
    return sql`select p.media_id from (${sql.join(parts, sql` union `)}) p
      where exists (select 1 from version_members vm where vm.version_id = ${versionId}::uuid and vm.media_id = p.media_id)`;
  }

  /** Whether one of them lacks `tag` in the version (else tagging would change nothing and no version is made). */
  async needsTag(trx: Db, taskId: string, versionId: string, sides: Array<{ comparison: number; side: 'a' | 'b' }>, tag: string): Promise<boolean> {
    const { rows } = await sql<{ needed: boolean }>`select exists (select 1 from (${this.leakedIn(taskId, versionId, sides)}) p
      left join version_annotations a on a.version_id = ${versionId}::uuid and a.media_id = p.media_id
      where a.tags is null or not a.tags @> ${[tag]}::text[]) as needed`.execute(trx);
    return rows[0]!.needed;
  }

  /**
   * Adds `tag` to the media of the pairs' `sides` (a: media_a, b: media_b of the listed comparisons) that are media
   * of `fromId`, into `toId` (a delta fork of it); returns how many media it changed.
   */
  tagLeaked(trx: Db, taskId: string, fromId: string, toId: string, sides: Array<{ comparison: number; side: 'a' | 'b' }>, tag: string): Promise<number> {
    const picked = this.leakedIn(taskId, fromId, sides);
    const tags = [tag];
    return rewriteAnnotations(trx, TAGS_AND_LABELS, fromId, toId, picked, { tags: sql`array(select distinct t from unnest(a.tags || ${tags}::text[]) t order by t)` }, sql`not (a.tags @> ${tags}::text[])`);
  }

  async counts(trx: Db, datasetId: string): Promise<{ n_images: number; n_videos: number }> {
    return trx.selectFrom('datasets').select(['n_images', 'n_videos']).where('id', '=', datasetId).executeTakeFirstOrThrow();
  }

  async saveRun(trx: Db, run: Omit<StoredRun, 'created_at'>): Promise<void> {
    await sql`insert into leakage_runs (task_id, dataset_id, other_dataset_id, split_field, threshold, tag, comparisons)
      values (${run.task_id}::uuid, ${run.dataset_id}::uuid, ${run.other_dataset_id}::uuid, ${run.split_field}, ${run.threshold}, ${run.tag}, ${JSON.stringify(run.comparisons)}::jsonb)
      on conflict (task_id) do update set comparisons = excluded.comparisons`.execute(trx);
  }

  async run(datasetId: string, taskId: string): Promise<StoredRun | undefined> {
    const { rows } = await sql<StoredRun>`select * from leakage_runs where task_id = ${taskId}::uuid and dataset_id = ${datasetId}::uuid`.execute(this.db);
    return rows[0];
  }

  /** The task behind a run that has none yet: its type and status, when it is one of this dataset's. */
  async task(datasetId: string, taskId: string): Promise<{ task_type: string; status: string } | undefined> {
    return this.db.selectFrom('tasks').select(['task_type', 'status']).where('id', '=', taskId).where('dataset_id', '=', datasetId).executeTakeFirst();
  }

  /** A page of pairs, most similar first (ties in comparison and id order, so pages are stable). */
  async pairs(taskId: string, comparison: number | null, page: number, size: number): Promise<PairRow[]> {
    const only = comparison === null ? sql`` : sql`and p.comparison = ${comparison}`;
    const { rows } = await sql<PairRow>`select p.comparison, p.media_a, p.media_b, p.similarity,
        ma.file_name as file_a, mb.file_name as file_b, ma.thumb_hash is not null as thumb_a, mb.thumb_hash is not null as thumb_b
      from leakage_pairs p join media ma on ma.id = p.media_a join media mb on mb.id = p.media_b
      where p.task_id = ${taskId}::uuid ${only}
      order by p.similarity desc, p.comparison, p.media_a, p.media_b
      limit ${size} offset ${page * size}`.execute(this.db);
    return rows;
  }
}
