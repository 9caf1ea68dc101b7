import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Db, assumeCachedPages, setWorkMem } from '../../adapters/db/database.js';
import type { KeyColumn } from '../../core/custom-fields.js';
import { CUSTOM_FIELDS, changeInsert } from '../versions/version-annotations.js';

/** Rows gathered before they go to the database as one write. */
const WRITE_BYTES = 256 * 1024;
/** Connections a task's staging COPY is spread over. */
const COPY_STREAMS = 2;
/** Transactions a task's field rows are written in, side by side. */
const WRITE_STREAMS = 2;
/** Keys of unmatched rows named in the report. */
const UNMATCHED_KEYS_KEPT = 20;

/** An import's staging rows and their set-based application to a version. */
export class CustomMetadataRepo {
  constructor(
    private readonly db: Db,
    private readonly pool: pg.Pool,
  ) {}

  async clear(taskId: string): Promise<void> {
    await this.db.deleteFrom('custom_metadata_rows').where('task_id', '=', taskId).execute();
  }

  /**
   * Opens COPYs into the staging table for a task's rows: add() them, await flush() every so often (each COPY then
   * holds all but its last write or two), end() to keep them or abort() to stop. The writes take turns over
   * COPY_STREAMS connections, so the database parses rows on more than one core while this process reads.
   */
  async stager(taskId: string): Promise<Stager> {
    const copies = await Promise.all(Array.from({ length: COPY_STREAMS }, () => openCopy(this.pool)));
    const task = Buffer.from(taskId.replace(/-/g, ''), 'hex');
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
        const most = 39 + 3 * (key.length + fields.length);
        if (most > buffer.length - at) {
          const grown = Buffer.allocUnsafe(Math.max(2 * buffer.length, at + most));
          buffer.copy(grown, 0, 0, at);
          buffer = grown;
        }
        at = buffer.writeInt16BE(4, at);
        at = buffer.writeInt32BE(16, at);
        at += task.copy(buffer, at);
        at = buffer.writeInt32BE(4, at);
        at = buffer.writeInt32BE(line, at);
        const keyBytes = writeUtf8(buffer, key, at + 4);
        buffer.writeInt32BE(keyBytes, at);
        at += 4 + keyBytes;
        buffer[at + 4] = 1;
        const fieldBytes = writeUtf8(buffer, fields, at + 5);
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
   * Writes a task's staged rows as the field rows of `toId`, the version an import forks from `fromId` when it
   * commits (its rows written first, so the commit only completes it): each row's key matched to fromId's
   * media (a file_name may name several), its fields merged into what the media had (a media named by several
   * rows takes the last), and the staged rows cleared. The rows are split by key over WRITE_STREAMS
   * transactions run side by side, so the database works on more than one core; each commits on its own, and
   * dropFields takes back what they wrote when the import does not commit. Returns how many field rows were
   * written, how many rows matched nothing and the first of their keys.
   */
  async writeFields(fromId: string, toId: string, taskId: string, key: KeyColumn): Promise<{ written: number; unmatched: number; unmatchedKeys: string[] }> {
    const parts = await Promise.all(Array.from({ length: WRITE_STREAMS }, (_, k) => this.db.transaction().execute((trx) => this.writePart(trx, fromId, toId, taskId, key, k))));
    const unmatched = parts.flatMap((p) => p.lines.map((line, i) => ({ line, key: p.keys[i]! })));
    return {
      written: parts.reduce((n, p) => n + p.written, 0),
      unmatched: parts.reduce((n, p) => n + p.unmatched, 0),
      unmatchedKeys: unmatched.sort((a, b) => a.line - b.line).slice(0, UNMATCHED_KEYS_KEPT).map((u) => u.key),
    };
  }

  private async writePart(trx: Db, fromId: string, toId: string, taskId: string, key: KeyColumn, part: number) {
    await setWorkMem(trx, '256MB');
    await assumeCachedPages(trx);
    // The planner cannot know how many staged rows a part holds (it guesses a few) nor, on a first import, that
    // field_rows fills while it is read: a nested loop over it would then rescan a growing table per row.
    await sql`set local enable_nestloop = off`.execute(trx);
    // Every row naming one key lands in one part: the media a key names are matched, and a media's last row picked, there.
    const inPart = (text: RawBuilder<unknown>) => sql`(hashtext(${text}) & 2147483647) % ${WRITE_STREAMS} = ${part}`;
    const media =
      key === 'media_id'
        ? sql`left join version_members k on k.version_id = ${fromId}::uuid and k.media_id = s.key::uuid`
        : sql`left join (select m.file_name, m.id as media_id from media m join version_members vm on vm.version_id = ${fromId}::uuid and vm.media_id = m.id
            where ${inPart(sql`m.file_name`)}) k on k.file_name = s.key`;
    const picked = sql`select distinct on (media_id) media_id, fields from matches where media_id is not null order by media_id, line desc`;
    const insert = await changeInsert(trx, CUSTOM_FIELDS, fromId, toId, picked, { custom_fields: sql`a.custom_fields || p.fields` });
    const { rows } = await sql<{ written: number; unmatched: number; lines: number[] | null; keys: string[] | null }>`
      with matches as materialized (
        select s.line, s.key, k.media_id, s.fields from custom_metadata_rows s ${media} where s.task_id = ${taskId}::uuid and ${inPart(sql`s.key`)}),
      written as (${insert} returning 1)
      select (select count(*) from written)::int as written, count(*) filter (where media_id is null)::int as unmatched,
        (array_agg(line order by line) filter (where media_id is null))[1:${UNMATCHED_KEYS_KEPT}] as lines,
        (array_agg(key order by line) filter (where media_id is null))[1:${UNMATCHED_KEYS_KEPT}] as keys
      from matches`.execute(trx);
    await sql`delete from custom_metadata_rows s where s.task_id = ${taskId}::uuid and ${inPart(sql`s.key`)}`.execute(trx);
    const row = rows[0]!;
    return { written: row.written, unmatched: row.unmatched, lines: row.lines ?? [], keys: row.keys ?? [] };
  }

  /** Takes back the field rows writeFields wrote for a version that was not made. */
  async dropFields(versionId: string): Promise<void> {
    await this.db.deleteFrom('field_rows').where('version_id', '=', versionId).execute();
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

/** One COPY on a client of its own: the client goes back when the COPY ends, or is dropped when it fails or is cancelled. */
async function openCopy(pool: pg.Pool) {
  const client = await pool.connect();
  const copy = client.query(copyFrom('copy custom_metadata_rows (task_id, line, key, fields) from stdin (format binary)'));
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
