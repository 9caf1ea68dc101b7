import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { StoredObject } from '../../adapters/db/schema.js';
import { FULL_SET_FLOOR, carryAnnotations } from '../versions/version-annotations.js';
import { ROW_COLUMNS } from '../versions/versions.repo.js';

/** What an enrichment reads: an image or video frame of the source version, by its preview where it has one. */
export interface EnrichmentItem {
  media_id: string;
  hash: string;
  mime: string;
  width: number | null;
  height: number | null;
}

export interface StagedResult {
  media_id: string;
  caption: string | null;
  objects: Array<StoredObject & { embedding?: number[] }> | null;
  enrichment: Record<string, unknown> | null;
}

export interface EnrichmentContextRow {
  enrichment_context_id: string;
  enrichment_models: Record<string, string>;
  task_status: string | null;
}

/** The task's results over the source row's values; every other column as the source has it. */
const ENRICHED: Partial<Record<(typeof ROW_COLUMNS)[number], RawBuilder<unknown>>> = {
  caption: sql`coalesce(r.caption, vm.caption)`,
  objects: sql`coalesce(r.objects, vm.objects)`,
  enrichment: sql`coalesce(vm.enrichment, '{}'::jsonb) || coalesce(r.enrichment, '{}'::jsonb)`,
};

/** Enrichment context, staged per-media results of a running task, and the enriched version they become. */
export class EnrichmentRepo {
  constructor(
    private readonly db: Db,
    /** config.fullSetFloor (see FULL_SET_FLOOR). */
    private readonly fullSetFloor = FULL_SET_FLOOR,
  ) {}

  async context(datasetId: string): Promise<EnrichmentContextRow | undefined> {
    return this.db
      .selectFrom('datasets as d')
      .select(['d.enrichment_context_id', 'd.enrichment_models'])
      .select((eb) =>
        eb
          .selectFrom('tasks as t')
          .select('t.status')
          .whereRef('t.dataset_id', '=', 'd.id')
          .where('t.task_type', '=', 'ENRICHMENT')
          .orderBy('t.start_time', 'desc')
          .limit(1)
          .as('task_status'),
      )
      .where('d.id', '=', datasetId)
      .executeTakeFirst();
  }

  async countItems(versionId: string, taskId: string): Promise<{ total: number; done: number }> {
    const row = await sql<{ total: number; done: number }>`
      select count(*)::int8 as total, count(r.media_id)::int8 as done
      from version_media vm join media m on m.id = vm.media_id
      left join enrichment_results r on r.task_id = ${taskId}::uuid and r.media_id = vm.media_id
      where vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME')`.execute(this.db);
    return row.rows[0]!;
  }

  /**
   * The items this task has no result for yet, cut in id order into ranges of `size` (the chunks of task-chunks.ts).
   * uuid has no min(); its canonical text sorts as the uuid does.
   */
  async pendingRanges(versionId: string, taskId: string, size: number): Promise<Array<{ first: string; last: string }>> {
    const rows = await sql<{ first: string; last: string }>`
      select min(id::text) as first, max(id::text) as last from (
        select m.id, (row_number() over (order by m.id) - 1) / ${size} as chunk
        from version_media vm join media m on m.id = vm.media_id where ${pendingFor(versionId, taskId)}) s
      group by chunk order by chunk`.execute(this.db);
    return rows.rows;
  }

  /** The next page of items in [first, last] after `after` this task has no result for yet, in media id order. */
  async pendingItemsIn(versionId: string, taskId: string, range: { first: string; last: string }, after: string | null, limit: number): Promise<EnrichmentItem[]> {
    const rows = await sql<EnrichmentItem>`
      select m.id as media_id, coalesce(m.preview_hash, m.blob_hash) as hash,
        case when m.preview_hash is not null and m.preview_hash <> m.blob_hash then 'image/jpeg' else m.mime end as mime,
        m.width, m.height
      from version_media vm join media m on m.id = vm.media_id
      where ${pendingFor(versionId, taskId)}
        and m.id between ${range.first}::uuid and ${range.last}::uuid and (${after}::uuid is null or m.id > ${after}::uuid)
      order by m.id limit ${limit}`.execute(this.db);
    return rows.rows;
  }

  /** How many media this task has a result for (its primary key's index alone). */
  async countStaged(taskId: string): Promise<number> {
    const row = await sql<{ n: number }>`select count(*)::int as n from enrichment_results where task_id = ${taskId}::uuid`.execute(this.db);
    return row.rows[0]!.n;
  }

  /** How many media this task could not read, and the first reason. */
  async countFailures(taskId: string): Promise<{ failures: number; firstFailure: string | null }> {
    const row = await sql<{ failures: number; first_failure: string | null }>`
      select count(*)::int as failures, (array_agg(enrichment ->> 'error' order by media_id))[1] as first_failure
      from enrichment_results where task_id = ${taskId}::uuid and enrichment ? 'error'`.execute(this.db);
    return { failures: row.rows[0]!.failures, firstFailure: row.rows[0]!.first_failure };
  }

  async stage(taskId: string, results: StagedResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.db
      .insertInto('enrichment_results')
      .values(
        results.map((r) => ({
          task_id: taskId,
          media_id: r.media_id,
          caption: r.caption,
          objects: r.objects === null ? null : JSON.stringify(r.objects),
          enrichment: r.enrichment === null ? null : JSON.stringify(r.enrichment),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['task_id', 'media_id']).doUpdateSet((eb) => ({
          caption: eb.ref('excluded.caption'),
          objects: eb.ref('excluded.objects'),
          enrichment: eb.ref('excluded.enrichment'),
        })),
      )
      .execute();
  }

  /** Every staged object with its crop embedding, in a stable order, for clustering. */
  async *stagedObjects(taskId: string): AsyncGenerator<{ media_id: string; objects: Array<StoredObject & { embedding?: number[] }> }> {
    let after: string | null = null;
    for (;;) {
      const page: Array<{ media_id: string; objects: Array<StoredObject & { embedding?: number[] }> | null }> = await this.db
        .selectFrom('enrichment_results')
        .select(['media_id', 'objects'])
        .where('task_id', '=', taskId)
        .where('objects', 'is not', null)
        .$if(after !== null, (q) => q.where('media_id', '>', after!))
        .orderBy('media_id')
        .limit(500)
        .execute();
      if (page.length === 0) return;
      for (const row of page) yield { media_id: row.media_id, objects: row.objects ?? [] };
      after = page[page.length - 1]!.media_id;
    }
  }

  /** Rewrites one media's staged objects: cluster ids and scores in, crop embeddings out. */
  async setStagedObjects(trx: Db, taskId: string, mediaId: string, objects: StoredObject[]): Promise<void> {
    await trx
      .updateTable('enrichment_results')
      .set({ objects: JSON.stringify(objects) })
      .where('task_id', '=', taskId)
      .where('media_id', '=', mediaId)
      .execute();
  }

  /**
   * The enriched copy's version: every row of the source version, with the task's results over what the
   * source had; a video takes its first frame's caption. The source's ANN index serves it too (same vectors).
   */
  async writeVersion(trx: Db, copyId: string, sourceVersionId: string, taskId: string): Promise<string> {
    const { id } = await trx
      .insertInto('versions')
      .values({ dataset_id: copyId, parent_id: sourceVersionId, task_id: taskId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const values = ROW_COLUMNS.map((c) => ENRICHED[c] ?? sql.ref(`vm.${c}`));
    await sql`insert into version_rows (version_id, ${sql.join(ROW_COLUMNS.map((c) => sql.ref(c)))})
      select ${id}::uuid, ${sql.join(values)}
      from version_media vm left join enrichment_results r on r.task_id = ${taskId}::uuid and r.media_id = vm.media_id
      where vm.version_id = ${sourceVersionId}::uuid`.execute(trx);
    await sql`update version_rows v set caption = f.caption
      from (select distinct on (m.parent_media_id) m.parent_media_id, r.caption
            from version_rows r join media m on m.id = r.media_id
            where r.version_id = ${id}::uuid and m.media_type = 'VIDEO_FRAME' and r.caption is not null
            order by m.parent_media_id, m.frame_timestamp) f
      where v.version_id = ${id}::uuid and v.media_id = f.parent_media_id and v.caption is null`.execute(trx);
    await sql`insert into version_indexes (version_id, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params)
      select ${id}::uuid, model, dimensions, item_count, mean, ann_blob_hash, graph_blob_hash, params from version_indexes where version_id = ${sourceVersionId}::uuid`.execute(trx);
    await carryAnnotations(trx, sourceVersionId, id, undefined, this.fullSetFloor);
    return id;
  }

  async finish(trx: Db, copyId: string, models: Record<string, string>, taskId: string): Promise<void> {
    await trx.updateTable('datasets').set({ enrichment_models: JSON.stringify(models) }).where('id', '=', copyId).execute();
    await trx.deleteFrom('enrichment_results').where('task_id', '=', taskId).execute();
  }

  /** A clone carries what was applied to its source's data (its snapshot's rows hold the results). */
  async copyApplied(trx: Db, fromId: string, toId: string): Promise<void> {
    await sql`update datasets set enrichment_models = (select enrichment_models from datasets where id = ${fromId}::uuid)
      where id = ${toId}::uuid and exists (select 1 from datasets where id = ${fromId}::uuid)`.execute(trx);
  }
}

/** Over `version_media vm join media m`: the version's images and video frames the task has no result for yet. */
function pendingFor(versionId: string, taskId: string) {
  return sql<boolean>`vm.version_id = ${versionId}::uuid and m.media_type in ('IMAGE', 'VIDEO_FRAME')
    and not exists (select 1 from enrichment_results r where r.task_id = ${taskId}::uuid and r.media_id = m.id)`;
}
