import { sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { KeyColumn } from '../../core/custom-fields.js';
import { rewriteAnnotations } from '../versions/version-annotations.js';

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
    await setWorkMem(trx, '256MB');
    const match =
      key === 'media_id'
        ? sql`join version_members vm on vm.version_id = ${versionId}::uuid and vm.media_id = s.key::uuid`
        : sql`join media m on m.file_name = s.key join version_members vm on vm.version_id = ${versionId}::uuid and vm.media_id = m.id`;
    await sql`create temp table import_matches on commit drop as
      select s.line, vm.media_id, s.fields from custom_metadata_rows s ${match} where s.task_id = ${taskId}::uuid`.execute(trx);
    const { rows } = await sql<{ staged: number; matched: number; media: number; pairs: number }>`select
      (select count(*)::int from custom_metadata_rows where task_id = ${taskId}::uuid) as staged,
      (select count(*)::int from (select line from import_matches group by line) l) as matched,
      (select count(*)::int from (select media_id from import_matches group by media_id) m) as media,
      (select count(*)::int from import_matches) as pairs`.execute(trx);
    const counts = rows[0]!;
    if (counts.pairs === counts.media) {
      // Each media named once (the usual file): the matches are the fields as they are, no sort.
      await sql`alter table import_matches rename to import_fields`.execute(trx);
    } else {
      await sql`create temp table import_fields on commit drop as
        select distinct on (media_id) media_id, fields from import_matches order by media_id, line desc`.execute(trx);
    }
    await sql`analyze import_fields`.execute(trx);
    const unmatched =
      counts.matched === counts.staged
        ? []
        : (
            await sql<{ key: string }>`select s.key from custom_metadata_rows s where s.task_id = ${taskId}::uuid
              and not exists (select 1 from ${sql.table(counts.pairs === counts.media ? 'import_fields' : 'import_matches')} i where i.line = s.line)
              order by s.line limit 20`.execute(trx)
          ).rows;
    return { staged: counts.staged, matched: counts.matched, media: counts.media, unmatchedKeys: unmatched.map((r) => r.key) };
  }

  /** Merges import_fields (after match(), in its transaction) into the annotations of `toId`, just forked from `fromId`. */
  async applyFields(trx: Db, fromId: string, toId: string): Promise<number> {
    return rewriteAnnotations(trx, fromId, toId, sql`select media_id, fields from import_fields`, { custom_fields: sql`a.custom_fields || p.fields` });
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
