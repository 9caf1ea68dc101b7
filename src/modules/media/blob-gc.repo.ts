import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';

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
      where exists (select 1 from media where blob_hash = h or thumb_hash = h or preview_hash = h)
         or exists (select 1 from upload_files where blob_hash = h)
         or exists (select 1 from version_indexes where ann_blob_hash = h)
         or exists (select 1 from exports where blob_hash = h)
         or exists (select 1 from tasks where status in ('INITIALIZING', 'RUNNING') and config ->> 'blob_hash' = h)`.execute(this.db);
    const keep = new Set(referenced.rows.map((r) => r.hash));
    return hashes.filter((h) => !keep.has(h));
  }
}
