import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';
import type { FieldMapping } from 'pg-copy-streams-binary';
import { copyRowsOf } from '../../adapters/db/binary-copy.js';
import type { Db } from '../../adapters/db/database.js';
import { quantizeRows } from '../../adapters/vectors/forest-graph.js';
import { bytesInto, bytesToVector } from '../../adapters/vectors/vector-bytes.js';
import { centreOne } from '../indexing/compute-index.js';
import { versionRowsOf } from '../versions/cluster-summaries.js';
import { TAGS_AND_LABELS, layerRows } from '../versions/version-annotations.js';

/** The labelled, embedded media of a version, centred as its index centres them, one byte per dimension. */
export interface LabelledVectors {
  mediaIds: string[];
  /** Class number of each item (an index into `labels`). */
  classOf: Int32Array;
  labels: string[];
  /** Each item's position in the version's ANN index (-1: not in it). */
  ordinals: Int32Array;
  /** Centred unit vectors, each row at its own scale (quantizeRows). */
  q8: Int8Array;
  /** Objects only: each item's object id (its media is in mediaIds). */
  objectIds?: string[];
  /**
   * Objects only: the stored graph of the detection holding most of them (object_graphs; null if none has one), whose
   * positions `ordinals` are (-1 for the objects of other detections).
   */
  objectGraph?: { taskId: string; graphBlobHash: string; itemCount: number } | null;
}

/** What a run scores: labelled media, detected objects, or both. */
export type LabelErrorTarget = 'media' | 'objects' | 'all';

export interface VersionIndexFacts {
  model: string;
  dimensions: number;
  itemCount: number;
  mean: Float32Array;
  annBlobHash: string | null;
  graphBlobHash: string | null;
}

/** One chunk of results to store: parallel arrays, one entry per media (or object: objectIds). */
export interface ScoreRows {
  mediaIds: string[];
  objectIds?: string[];
  labels: string[];
  scores: Array<number | null>;
  suggested: Array<string | null>;
  outlierScores: Array<number | null>;
  mislabels: boolean[];
  outliers: boolean[];
}

const OBJECT_ROW: FieldMapping[] = [
  { key: 'object_id', type: 'text' },
  { key: 'media_id', type: 'text' },
  { key: 'label', type: 'text' },
  { key: 'vector', type: 'bytea' },
  { key: 'task_id', type: 'text' },
  { key: 'ordinal', type: 'int4' },
];

const ROW: FieldMapping[] = [
  { key: 'media_id', type: 'text' },
  { key: 'label', type: 'text' },
  { key: 'ordinal', type: 'int4' },
  { key: 'vector', type: 'bytea' },
];

/**
 * The run of label errors that applies to a version: the newest of its dataset's committed runs made no later than
 * the version (the run's own version, and the edits made after it) that scored media (or objects), as a scalar
 * subquery. `version` may be inline.
 */
export const runOf = (version: RawBuilder<unknown>, scored: 'scores_media' | 'scores_objects' = 'scores_media') =>
  sql`(select r.id from label_error_runs r join versions v on v.id = ${version}
    where r.dataset_id = v.dataset_id and r.version_id is not null and r.created_at <= v.created_at and r.${sql.ref(scored)}
    order by r.created_at desc limit 1)`;

/** The id of the object `o` as a uuid (null for an id that is not one, as rows written by hand may hold): never a cast error. */
export const objectUuid = (o: RawBuilder<unknown>) =>
  sql`(case when ${o} ->> 'object_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (${o} ->> 'object_id')::uuid end)`;

/**
 * Whether the object `o` (an element of a version row's `objects`) carries the flag in the objects run that applies to
 * the version, under the label it has now: one probe of the scores' primary key.
 */
export const objectFlagged = (o: RawBuilder<unknown>, flag: 'is_mislabel' | 'is_class_outlier', version: RawBuilder<unknown>) =>
  sql<boolean>`exists (select 1 from object_label_error_scores s where s.run_id = ${runOf(version, 'scores_objects')}
    and s.object_id = ${objectUuid(o)} and s.label = ${o} ->> 'label' and s.${sql.ref(flag)})`;

/**
 * A version row's `objects` (jsonb) with each object scored by the objects run that applies to the version given its
 * scores (mislabel_score, suggested_label, class_outlier_score, is_mislabel, is_class_outlier), for the exports.
 */
export const scoredObjects = (objects: RawBuilder<unknown>, version: RawBuilder<unknown>) =>
  sql`case when ${objects} is null or ${runOf(version, 'scores_objects')} is null then ${objects} else (select coalesce(jsonb_agg(case when s.is_mislabel is null then e.o
      else e.o || jsonb_build_object('mislabel_score', s.mislabel_score, 'suggested_label', s.suggested_label, 'class_outlier_score', s.class_outlier_score,
        'is_mislabel', s.is_mislabel, 'is_class_outlier', s.is_class_outlier) end order by e.n), '[]'::jsonb)
    from jsonb_array_elements(${objects}) with ordinality e(o, n) left join lateral ${objectScores(sql`e.o`, version)} s on true) end`;

/**
 * The score rows of the objects run that applies to the version that carry any of `flags` (by the partial indexes of
 * 0051), as a subquery: where Explore's filtered objects view and the issues route's object counts start.
 */
export const flaggedObjectScores = (version: RawBuilder<unknown>, flags: ReadonlyArray<'is_mislabel' | 'is_class_outlier'>) =>
  sql`(select s.* from object_label_error_scores s where s.run_id = ${runOf(version, 'scores_objects')}
    and (${sql.join(flags.map((flag) => sql`s.${sql.ref(flag)}`), sql` or `)}))`;

/** The scores of the object `o` in the objects run that applies to the version, if it still has the label scored (a lateral subquery). */
export const objectScores = (o: RawBuilder<unknown>, version: RawBuilder<unknown>) =>
  sql`(select s.mislabel_score, s.suggested_label, s.class_outlier_score, s.is_mislabel, s.is_class_outlier from object_label_error_scores s
    where s.run_id = ${runOf(version, 'scores_objects')} and s.object_id = ${objectUuid(o)} and s.label = ${o} ->> 'label')`;

/**
 * The scores of the run that applies to the version, kept only where the media still has the label that was scored:
 * a media relabelled since has no score (its old label's neighbours said nothing about the new one).
 */
export const currentScores = (version: RawBuilder<unknown>) =>
  sql`(select s.* from label_error_scores s join version_annotations va on va.version_id = ${version} and va.media_id = s.media_id and va.label = s.label
    where s.run_id = ${runOf(version)})`;

/** Ids of the version's media flagged `mislabels` (or `class_outliers`) by the run that applies to it. */
export const flaggedIds = (flag: 'is_mislabel' | 'is_class_outlier') => (version: RawBuilder<unknown>) =>
  sql`select s.media_id from ${currentScores(version)} s where s.${sql.ref(flag)}`;

/** The SQL of label errors: what a run reads (labelled vectors) and writes (runs and scores). */
export class LabelErrorsRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  async versionIndex(versionId: string): Promise<VersionIndexFacts | null> {
    const row = await this.db.selectFrom('version_indexes').selectAll().where('version_id', '=', versionId).executeTakeFirst();
    if (!row) return null;
    return { model: row.model, dimensions: row.dimensions, itemCount: row.item_count, mean: bytesToVector(row.mean), annBlobHash: row.ann_blob_hash, graphBlobHash: row.graph_blob_hash };
  }

  /** How many media of the version have a label (stops counting at `cap`). */
  async countLabelled(db: Db, versionId: string, cap = 2): Promise<number> {
    const labels = await layerRows(db, TAGS_AND_LABELS, versionId);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${labels} a where a.label is not null limit ${cap}) s`.execute(db);
    return rows[0]!.n;
  }

  /** How many detected objects of the version have a crop embedding (stops counting at `cap`). */
  async countObjects(db: Db, versionId: string, cap = 2): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${await versionRowsOf(db, versionId)} w
      cross join jsonb_array_elements(w.objects) o join object_embeddings e on e.object_id = ${objectUuid(sql`o`)}
      where w.objects is not null limit ${cap}) s`.execute(db);
    return rows[0]!.n;
  }

  /**
   * The version's detected objects that have a crop embedding (object-embeddings.repo.ts), labelled by their class, in
   * object-id order, read by one binary COPY into one byte per dimension (already centred: copied as stored).
   */
  async labelledObjects(versionId: string, d: number, signal: AbortSignal, onRows: (n: number) => Promise<void>): Promise<LabelledVectors> {
    const query = sql`select o ->> 'object_id' as object_id, w.media_id::text, o ->> 'label' as label, e.vector, e.task_id::text, e.ordinal
      from ${await versionRowsOf(this.db, versionId, true)} w cross join jsonb_array_elements(w.objects) o
      join object_embeddings e on e.object_id = ${objectUuid(sql`o`)}
      where w.objects is not null and o ->> 'label' is not null order by 1`.compile(this.db).sql;
    const objectIds: string[] = [];
    const tasks = new Map<string, number>();
    const taskOf: number[] = [];
    type Row = { object_id: string; media_id: string; label: string; vector: Buffer; task_id: string | null; ordinal: number | null };
    const read = await this.copyRows(query, OBJECT_ROW, d, signal, onRows, (r: Row, q8) => {
      // Another model's crops (another dimension) cannot be compared with these.
      if (r.vector.byteLength !== d) return null;
      q8.set(new Int8Array(r.vector.buffer, r.vector.byteOffset, d));
      objectIds.push(r.object_id);
      let task = -1;
      if (r.task_id !== null && r.ordinal !== null) {
        task = tasks.get(r.task_id) ?? tasks.size;
        tasks.set(r.task_id, task);
      }
      taskOf.push(task);
      return { id: r.media_id, label: r.label, ordinal: r.ordinal ?? -1 };
    });
    const n = read.mediaIds.length;
    const objectGraph = await this.largestObjectGraph([...tasks.keys()], taskOf);
    const chosen = objectGraph ? tasks.get(objectGraph.taskId)! : -2;
    for (let i = 0; i < n; i++) {
      if (taskOf[i] !== chosen || read.ordinals[i]! >= objectGraph!.itemCount) read.ordinals[i] = -1;
    }
    return { ...read, objectIds, objectGraph };
  }

  /** The stored graph of the detection (of `tasks`) that found most of the objects (`taskOf`: each one's task), if any has one. */
  private async largestObjectGraph(tasks: string[], taskOf: number[]): Promise<LabelledVectors['objectGraph']> {
    if (tasks.length === 0) return null;
    const { rows } = await sql<{ task_id: string; item_count: number; graph_blob_hash: string }>`select task_id::text, item_count, graph_blob_hash
      from object_graphs where task_id = any(${tasks}::uuid[])`.execute(this.db);
    if (rows.length === 0) return null;
    const counts = new Array<number>(tasks.length).fill(0);
    for (const t of taskOf) if (t >= 0) counts[t]!++;
    const best = rows.reduce((a, b) => (counts[tasks.indexOf(b.task_id)]! > counts[tasks.indexOf(a.task_id)]! ? b : a));
    return { taskId: best.task_id, graphBlobHash: best.graph_blob_hash, itemCount: best.item_count };
  }

  /**
   * The version's labelled media that have an embedding of the model, in media-id order, read by one binary COPY and
   * centred on the index's mean as they arrive: memory holds one byte per dimension and the ids, never a row object.
   */
  async labelledVectors(versionId: string, index: VersionIndexFacts, signal: AbortSignal, onRows: (n: number) => Promise<void>): Promise<LabelledVectors> {
    const d = index.dimensions;
    const labels = await layerRows(this.db, TAGS_AND_LABELS, versionId, true);
    const query = sql`select a.media_id::text, a.label, w.ordinal, e.vector from ${labels} a
      join ${await versionRowsOf(this.db, versionId, true)} w on w.media_id = a.media_id
      join media_embeddings e on e.media_id = a.media_id and e.model = ${sql.lit(index.model)}
      where a.label is not null order by a.media_id`.compile(this.db).sql;
    const row = new Float32Array(d);
    return this.copyRows(query, ROW, d, signal, onRows, (r: { media_id: string; label: string; ordinal: number | null; vector: Buffer }, q8) => {
      if (r.vector.byteLength !== d * 4) throw new Error(`embedding of ${r.media_id} does not have ${d} dimensions`);
      bytesInto(r.vector, row, 0);
      quantizeRows(centreOne(row, index.mean), d, q8);
      return { id: r.media_id, label: r.label, ordinal: r.ordinal ?? -1 };
    });
  }

  /**
   * Runs a binary COPY of labelled rows; `take` writes each row's one-byte vector into its slot and names its id, label
   * and ordinal (null: skip the row). Memory holds one byte per dimension and the ids, never a row object.
   */
  private async copyRows<R>(
    query: string,
    mapping: FieldMapping[],
    d: number,
    signal: AbortSignal,
    onRows: (n: number) => Promise<void>,
    take: (row: R, q8: Int8Array) => { id: string; label: string; ordinal: number } | null,
  ): Promise<LabelledVectors> {
    const mediaIds: string[] = [];
    const classes = new Map<string, number>();
    let classOf: Int32Array = new Int32Array(1024);
    let ordinals: Int32Array = new Int32Array(1024);
    let q8: Int8Array = new Int8Array(1024 * d);
    for await (const r of copyRowsOf<R>(this.pool, query, mapping, signal)) {
      const i = mediaIds.length;
      if (i === classOf.length) {
        classOf = grow(classOf, 2 * i);
        ordinals = grow(ordinals, 2 * i);
        q8 = grow(q8, 2 * i * d);
      }
      const item = take(r, q8.subarray(i * d, (i + 1) * d));
      if (!item) continue;
      let c = classes.get(item.label);
      if (c === undefined) classes.set(item.label, (c = classes.size));
      classOf[i] = c;
      ordinals[i] = item.ordinal;
      mediaIds.push(item.id);
      if (mediaIds.length % 20_000 === 0) await onRows(mediaIds.length);
    }
    const n = mediaIds.length;
    return { mediaIds, classOf: classOf.slice(0, n), labels: [...classes.keys()], ordinals: ordinals.slice(0, n), q8: q8.slice(0, n * d) };
  }

  /** A run not yet committed (no version): its scores are written beside it, invisible until the commit names its version. */
  async startRun(datasetId: string, taskId: string, k: number, threshold: number, target: LabelErrorTarget = 'media'): Promise<string> {
    await sql`delete from label_error_runs where task_id = ${taskId}::uuid and version_id is null`.execute(this.db);
    const { rows } = await sql<{ id: string }>`insert into label_error_runs (dataset_id, task_id, k, threshold, version_id, scores_media, scores_objects)
      values (${datasetId}::uuid, ${taskId}::uuid, ${k}, ${threshold}, null, ${target !== 'objects'}, ${target !== 'media'}) returning id`.execute(this.db);
    return rows[0]!.id;
  }

  async writeScores(runId: string, rows: ScoreRows): Promise<void> {
    await sql`insert into label_error_scores (run_id, media_id, label, mislabel_score, suggested_label, class_outlier_score, is_mislabel, is_class_outlier)
      select ${runId}::uuid, r.* from unnest(${rows.mediaIds}::uuid[], ${rows.labels}::text[], ${rows.scores}::real[], ${rows.suggested}::text[],
        ${rows.outlierScores}::real[], ${rows.mislabels}::boolean[], ${rows.outliers}::boolean[]) r`.execute(this.db);
  }

  async writeObjectScores(runId: string, rows: ScoreRows): Promise<void> {
    await sql`insert into object_label_error_scores (run_id, object_id, media_id, label, mislabel_score, suggested_label, class_outlier_score, is_mislabel, is_class_outlier)
      select ${runId}::uuid, r.* from unnest(${rows.objectIds!}::uuid[], ${rows.mediaIds}::uuid[], ${rows.labels}::text[], ${rows.scores}::real[], ${rows.suggested}::text[],
        ${rows.outlierScores}::real[], ${rows.mislabels}::boolean[], ${rows.outliers}::boolean[]) r`.execute(this.db);
  }

  /** The objects a committed run flagged (its own counts; commitRun's are of media). */
  async objectCounts(trx: Db, runId: string): Promise<{ mislabels: number; class_outliers: number; scored: number }> {
    const { rows } = await sql<{ mislabels: number; class_outliers: number; scored: number }>`select count(*) filter (where is_mislabel)::int as mislabels,
      count(*) filter (where is_class_outlier)::int as class_outliers, count(*)::int as scored from object_label_error_scores where run_id = ${runId}::uuid`.execute(trx);
    return rows[0]!;
  }

  /** The commit: the run applies from the version just forked (same transaction, so the same created_at). */
  async commitRun(trx: Db, runId: string, versionId: string): Promise<{ mislabels: number; class_outliers: number; scored: number }> {
    await sql`update label_error_runs r set version_id = v.id, created_at = v.created_at from versions v where r.id = ${runId}::uuid and v.id = ${versionId}::uuid`.execute(trx);
    const { rows } = await sql<{ mislabels: number; class_outliers: number; scored: number }>`select count(*) filter (where is_mislabel)::int as mislabels,
      count(*) filter (where is_class_outlier)::int as class_outliers, count(*)::int as scored from label_error_scores where run_id = ${runId}::uuid`.execute(trx);
    return rows[0]!;
  }
}

function grow<T extends Int32Array | Int8Array>(a: T, length: number): T {
  const next = new (a.constructor as new (n: number) => T)(length);
  next.set(a);
  return next;
}
