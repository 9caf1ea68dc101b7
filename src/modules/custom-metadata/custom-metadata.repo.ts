import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { KeyColumn } from '../../core/custom-fields.js';
import { rewriteRows } from '../versions/versions.repo.js';

export interface StagedRow {
  line: number;
  key: string;
  fields: Record<string, unknown>;
}

/** An import's staging rows and their set-based application to a version. */
export class CustomMetadataRepo {
  constructor(private readonly db: Db) {}

  async clear(taskId: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('custom_metadata_rows').where('task_id', '=', taskId).execute();
  }

  /** One statement per batch: the rows travel as one JSON parameter. */
  async stage(taskId: string, rows: StagedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`insert into custom_metadata_rows (task_id, line, key, fields)
      select ${taskId}::uuid, r.line, r.key, r.fields from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(line int, key text, fields jsonb)
      on conflict (task_id, line) do nothing`.execute(this.db);
  }

  /**
   * Matches the staged rows to the version's media by key (a file_name may name several media; a media named
   * by several rows takes the last) into the transaction's temporary table import_fields (media_id, fields),
   * and counts: rows staged, rows matched, media matched, the first keys that matched nothing.
   */
  async match(trx: Db, versionId: string, taskId: string, key: KeyColumn): Promise<{ staged: number; matched: number; media: number; unmatchedKeys: string[] }> {
    const match =
      key === 'media_id'
        ? sql`join version_media vm on vm.version_id = ${versionId}::uuid and vm.media_id = s.key::uuid`
        : sql`join media m on m.file_name = s.key join version_media vm on vm.version_id = ${versionId}::uuid and vm.media_id = m.id`;
    await sql`create temp table import_matches on commit drop as
      select s.line, vm.media_id, s.fields from custom_metadata_rows s ${match} where s.task_id = ${taskId}::uuid`.execute(trx);
    await sql`create temp table import_fields on commit drop as
      select distinct on (media_id) media_id, fields from import_matches order by media_id, line desc`.execute(trx);
    await sql`create unique index on import_fields (media_id)`.execute(trx);
    await sql`analyze import_fields`.execute(trx);
    const { rows } = await sql<{ staged: number; matched: number; media: number }>`select
      (select count(*)::int from custom_metadata_rows where task_id = ${taskId}::uuid) as staged,
      (select count(distinct line)::int from import_matches) as matched,
      (select count(*)::int from import_fields) as media`.execute(trx);
    const unmatched = await sql<{ key: string }>`select s.key from custom_metadata_rows s
      where s.task_id = ${taskId}::uuid and not exists (select 1 from import_matches i where i.line = s.line) order by s.line limit 20`.execute(trx);
    return { ...rows[0]!, unmatchedKeys: unmatched.rows.map((r) => r.key) };
  }

  /** The matched media and their fields (after match(), in its transaction). */
  static readonly matchedFields = sql`select media_id, fields from import_fields`;

  /** The merge of each matched media's fields, as a row change over `vm` and (in a rewritten fork) the joined `f`. */
  static readonly mergeFields = sql`vm.custom_fields || coalesce(f.fields, '{}'::jsonb)`;

  /** Merges import_fields into a (delta) version's rows: copy on write of the matched rows only. */
  async applyFields(trx: Db, versionId: string): Promise<number> {
    return rewriteRows(trx, versionId, sql`select media_id from import_fields`, {
      custom_fields: sql`vm.custom_fields || (select f.fields from import_fields f where f.media_id = vm.media_id)`,
    });
  }

  /** Keeps the import's report on its task row (config.report), in the commit's transaction. */
  async saveReport(trx: Db, taskId: string, report: object): Promise<void> {
    await sql`update tasks set config = config || jsonb_build_object('report', ${JSON.stringify(report)}::jsonb) where id = ${taskId}::uuid`.execute(trx);
  }

  async findTask(datasetId: string, taskId: string) {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'status', 'status_message', 'error_message', 'progress_percentage', 'config'])
      .where('id', '=', taskId)
      .where('dataset_id', '=', datasetId)
      .where('task_type', '=', 'CUSTOM_METADATA')
      .executeTakeFirst();
  }
}
