import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from '../../adapters/db/database.js';
import type { KeyColumn } from '../../core/custom-fields.js';
import { rewriteRows } from '../versions/versions.repo.js';

/** A row to stage: the line it starts on, its key, its fields as a JSON object's text. */
export interface StagedRow {
  line: number;
  key: string;
  fields: string;
}

/** Text gathered before it goes to the database as one write. */
const WRITE_CHARS = 256 * 1024;

/** An import's staging rows and their set-based application to a version. */
export class CustomMetadataRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  async clear(taskId: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('custom_metadata_rows').where('task_id', '=', taskId).execute();
  }

  /**
   * Opens one COPY into the staging table for a task's rows: add() them, await write() when it says to (the
   * database then holds all but the last write or two), end() to keep them or abort() to keep none.
   */
  async stager(taskId: string): Promise<Stager> {
    const client = await this.pool.connect();
    const copy = client.query(copyFrom('copy custom_metadata_rows (task_id, line, key, fields) from stdin'));
    let failed: Error | null = null;
    copy.on('error', (err: Error) => (failed ??= err));
    let text = '';
    const write = async () => {
      if (failed) throw failed;
      if (text === '') return;
      const chunk = text;
      text = '';
      if (!copy.write(chunk)) await once(copy, 'drain');
    };
    return {
      add(row) {
        text += `${taskId}\t${row.line}\t${copyText(row.key)}\t${copyText(row.fields)}\n`;
        return text.length >= WRITE_CHARS;
      },
      write,
      async end() {
        try {
          await write();
          copy.end();
          await finished(copy);
        } finally {
          client.release(failed ?? undefined);
        }
      },
      async abort() {
        // A COPY that failed has ended on its own; any other is cancelled (CopyFail) before its client goes.
        if (!failed) {
          copy.destroy(new Error('the import stopped'));
          await finished(copy).catch(() => {});
        }
        client.release(true);
      },
    };
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

export interface Stager {
  /** Adds a row; true when enough is gathered to write. */
  add(row: StagedRow): boolean;
  write(): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

/** COPY's text format: backslash, tab and line breaks escaped. */
const copyText = (value: string) => (/[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : value);
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
