import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Db, inParallel, setWorkMem } from '../../adapters/db/database.js';
import type { KeyColumn } from '../../core/custom-fields.js';
import { ACTIVE_STATUSES } from '../../core/tasks.js';
import { CUSTOM_FIELDS, FULL_SET_FLOOR, rewriteAnnotations } from '../versions/version-annotations.js';

/** Rows gathered before they go to the database as one write. */
const WRITE_BYTES = 256 * 1024;
/** Connections a task's staging COPY is spread over. */
const COPY_STREAMS = 2;

/** An import's staged rows, in a table of its own (migration 0024), and their set-based application to a version. */
export class CustomMetadataRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
    /** config.fullSetFloor (see FULL_SET_FLOOR). */
    private readonly fullSetFloor = FULL_SET_FLOOR,
  ) {}

  /** A new, empty staging table for the task (a rerun starts over). */
  async prepare(taskId: string): Promise<void> {
    const table = sql.raw(stagingTable(taskId));
    await sql`drop table if exists ${table}`.execute(this.db);
    await sql`create unlogged table ${table} (like import_staging.template)`.execute(this.db);
  }

  async discard(taskId: string): Promise<void> {
    await sql`drop table if exists ${sql.raw(stagingTable(taskId))}`.execute(this.db);
  }

  /**
   * Drops the staging tables of tasks no longer active, which a process that stopped between an import's end
   * and its discard() leaves behind. A task never becomes active again once it has ended, so none of these is
   * in use. Returns how many went.
   */
  async sweepStaging(): Promise<number> {
    const { rows } = await sql<{ task_id: string }>`select c.relname as task_id from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'import_staging' and c.relkind = 'r' and c.relname ~ '^[0-9a-f-]{36}$'
        and not exists (select 1 from tasks t where t.id::text = c.relname and t.status in (${sql.join(ACTIVE_STATUSES)}))`.execute(this.db);
    for (const { task_id } of rows) await this.discard(task_id);
    return rows.length;
  }

  /**
   * Opens COPYs into the staging table for a task's rows: add() them, await flush() every so often (each COPY then
   * holds all but its last write or two), end() to keep them or abort() to stop. The writes take turns over
   * COPY_STREAMS connections, so the database parses rows on more than one core while this process reads.
   */
  async stager(taskId: string): Promise<Stager> {
    const copies = await Promise.all(Array.from({ length: COPY_STREAMS }, () => openCopy(this.pool, taskId)));
    let turn = 0;
    let buffer = Buffer.allocUnsafe(WRITE_BYTES);
    let at = 0;
    const ship = async () => {
      const chunk = buffer.subarray(0, at);
      buffer = Buffer.allocUnsafe(WRITE_BYTES);
      at = 0;
      if (chunk.length > 0) await copies[turn++ % copies.length]!.write(chunk);
    };
    return {
      add(line, key, fields) {
        // COPY's binary tuple: the field count, then each field's length and bytes (jsonb: a version byte, then its text).
        const most = 19 + 3 * (key.length + fields.length);
        if (most > buffer.length - at) {
          const grown = Buffer.allocUnsafe(Math.max(2 * buffer.length, at + most));
          buffer.copy(grown, 0, 0, at);
          buffer = grown;
        }
        at = buffer.writeInt16BE(3, at);
        at = buffer.writeInt32BE(4, at);
        at = buffer.writeInt32BE(line, at);
        const keyBytes = writeUtf8(buffer, key, at + 4);
        buffer.writeInt32BE(keyBytes, at);
        at += 4 + keyBytes;
        buffer[at + 4] = 1;
        // The fields' text is joined piece by piece (a rope): the runtime's write flattens it once, where reading
        // it a character at a time costs twice as much (measured: 0.5 against 0.25 s per 1M rows).
        const fieldBytes = buffer.write(fields, at + 5);
        buffer.writeInt32BE(fieldBytes + 1, at);
        at += 5 + fieldBytes;
      },
      flush: () => (at >= WRITE_BYTES / 2 ? ship() : Promise.resolve()),
      async end() {
        await ship();
        const ends = await Promise.allSettled(copies.map((copy) => copy.end()));
        const failed = ends.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
      },
      async abort() {
        await Promise.all(copies.map((copy) => copy.abort()));
      },
    };
  }

  /**
   * Matches the staged rows to the version's media by key (a file_name may name several media) into a table of
   * the transaction's own (line, key, media_id, fields; media_id null, and the key given, where a row matched
   * nothing), which applyFields reads and drops, and tells how many (row, media) pairs it holds, how many rows
   * matched nothing and the first of their keys. The table is not temporary, so the statements that read it can run
   * in parallel; made and dropped in one transaction, it is never seen outside it and no crash leaves it behind.
   * Nor is it unlogged: a PostgreSQL SIGKILLed during this transaction then failed its crash recovery ("could not
   * create file …: File exists", 1 in 2–5 kills in npm run chaos); a table made in its transaction writes no WAL at
   * wal_level minimal anyway (match 531 → 559 ms for 200k rows, within the noise).
   */
  async match(trx: Db, versionId: string, taskId: string, key: KeyColumn): Promise<{ pairs: number; unmatched: number; unmatchedKeys: string[] }> {
    await setWorkMem(trx, '256MB');
    const media =
      key === 'media_id'
        ? sql`left join version_members vm on vm.version_id = ${versionId}::uuid and vm.media_id = s.key::uuid`
        : sql`left join (media m join version_members vm on vm.version_id = ${versionId}::uuid and vm.media_id = m.id) on m.file_name = s.key`;
    const matches = matchesTable(taskId);
    return inParallel(trx, async () => {
      // A row's key is kept only where it matched nothing, for the report: for every row, the keys made the
      // table a seventh larger.
      await sql`create table ${matches} as
        select s.line, case when vm.media_id is null then s.key end as key, vm.media_id, s.fields
        from ${sql.raw(stagingTable(taskId))} s ${media}`.execute(trx);
      const { rows } = await sql<{ pairs: number; unmatched: number }>`select
        count(media_id)::int as pairs, (count(*) - count(media_id))::int as unmatched from ${matches}`.execute(trx);
      const { pairs, unmatched } = rows[0]!;
      // The first keys apart, and only when there are any: each is another scan of all the matches (an ordered
      // aggregate in the count above sorted every one of them: 0.45 s for 1M).
      const keys = unmatched === 0 ? [] : (await sql<{ key: string }>`select key from ${matches} where media_id is null order by line limit 20`.execute(trx)).rows;
      return { pairs, unmatched, unmatchedKeys: keys.map((k) => k.key) };
    });
  }

  /**
   * Merges the matched fields (after match(), in its transaction, which counted their `pairs`) into the annotations
   * of `toId`, just forked from `fromId`; a media named by several rows takes the last. Drops the matches once
   * read. Returns how many media changed.
   */
  async applyFields(trx: Db, fromId: string, toId: string, taskId: string, pairs: number): Promise<number> {
    const matches = matchesTable(taskId);
    const merge = { custom_fields: sql`a.custom_fields || p.fields` };
    // A file usually names each media once: written straight from the matches, a media named twice breaks the
    // version's key and the matches are narrowed to each media's last row instead (a sort of all of them).
    await sql`savepoint apply_fields`.execute(trx);
    let changed: number;
    try {
      changed = await rewriteAnnotations(trx, CUSTOM_FIELDS, fromId, toId, sql`select media_id, fields from ${matches} where media_id is not null`, merge, undefined, pairs, this.fullSetFloor);
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      await sql`rollback to savepoint apply_fields`.execute(trx);
      const last = sql`select distinct on (media_id) media_id, fields from ${matches} where media_id is not null order by media_id, line desc`;
      changed = await rewriteAnnotations(trx, CUSTOM_FIELDS, fromId, toId, last, merge, undefined, pairs, this.fullSetFloor);
    }
    await sql`drop table ${matches}`.execute(trx);
    return changed;
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
  /** Adds a row: its line, its key, its fields as a JSON object's text. */
  add(line: number, key: string, fields: string): void;
  /** Writes what is gathered once there is enough, waiting while the database is behind. */
  flush(): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

/** buffer.write, but a loop for the ASCII text most rows are: a call into the runtime per short string costs more than the bytes. */
function writeUtf8(buffer: Buffer, text: string, at: number): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return buffer.write(text, at);
    buffer[at + i] = c;
  }
  return n;
}

/** COPY's binary format: its signature, no flags, no header extension; and the end of its tuples. */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** A task's staging table's name as SQL text (COPY takes its statement as text), the id checked first. */
function stagingTable(taskId: string): string {
  return `import_staging."${checkedTaskId(taskId)}"`;
}

/** The table match() fills for applyFields, beside the staging table (whose sweep its name does not match). */
export function matchesTable(taskId: string) {
  return sql.table(`import_staging.${checkedTaskId(taskId)}-matches`);
}

/** The id, once it is known to be one: it goes into table names. */
function checkedTaskId(taskId: string): string {
  if (!UUID.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  return taskId;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One COPY on a client of its own: the client goes back when the COPY ends, or is dropped when it fails or is cancelled. */
async function openCopy(pool: pg.Pool, taskId: string) {
  const client = await pool.connect();
  const copy = client.query(copyFrom(`copy ${stagingTable(taskId)} (line, key, fields) from stdin (format binary)`));
  let failed: Error | null = null;
  copy.on('error', (err: Error) => (failed ??= err));
  const write = async (chunk: Buffer) => {
    if (failed) throw failed;
    if (!copy.write(chunk)) await once(copy, 'drain');
  };
  copy.write(BINARY_HEADER);
  return {
    write,
    async end() {
      try {
        await write(BINARY_TRAILER);
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
