import { sql } from 'kysely';
import { BLOB_REFERENCES } from '../../adapters/db/blob-references.js';
import type { Db } from '../../adapters/db/database.js';

/** Whether any row that still needs it names the blob `h`. */
const REFERENCED = sql.raw(
  BLOB_REFERENCES.map((r) => `exists (select 1 from ${r.table} where ${r.activeOnly ? `${r.activeOnly} and ` : ''}${r.column} = h)`).join('\n         or '),
);

/** The queue of blobs that may have lost their last reference, and the check before one is deleted. */
export class BlobGcRepo {
  constructor(private readonly db: Db) {}

  async queue(hashes: string[]): Promise<void> {
    if (hashes.length === 0) return;
    await sql`insert into blob_gc_candidates (hash) select distinct unnest(${hashes}::text[])
      on conflict (hash) do update set queued_at = now()`.execute(this.db);
  }

  /** Candidates queued before `before` that no media, upload, version index, export or active task (an import's file) references now; removed from the queue. */
  async takeUnreferenced(before: Date, limit: number): Promise<string[]> {
    const result = await sql<{ hash: string }>`
      delete from blob_gc_candidates c
      where c.hash in (
        select hash from blob_gc_candidates
        where queued_at <= ${before}
        order by queued_at
        limit ${limit}
        for update skip locked)
      returning c.hash`.execute(this.db);
    const hashes = result.rows.map((r) => r.hash);
    if (hashes.length === 0) return [];
    const referenced = await sql<{ hash: string }>`
      select h as hash from unnest(${hashes}::text[]) h
      where ${REFERENCED}`.execute(this.db);
    const keep = new Set(referenced.rows.map((r) => r.hash));
    return hashes.filter((h) => !keep.has(h));
  }
}
