import { randomUUID } from 'node:crypto';
import type { Db } from '../../adapters/db/database.js';
import type { NewMedia } from '../../adapters/db/schema.js';
import type { MediaEmbedding } from '../../adapters/media/image.js';
import type { IngestionRepo } from '../ingestion/ingestion.repo.js';
import type { MediaRepo } from './media.repo.js';

export interface ImageRow {
  fileId: string;
  media: NewMedia;
  embedding: MediaEmbedding | null;
}

export interface ImageRowDeps {
  db: Db;
  media: MediaRepo;
  ingestion: IngestionRepo;
}

/** Rows a batch takes; and how long the first row of a batch waits for others. */
const BATCH_ROWS = 32;
const BATCH_WAIT_MS = 200;

/**
 * The image media rows of one chunk, written in batches: a batch's media, embeddings and file links in one
 * transaction, so a file is still linked with its media or not at all, as when each file had its own. A file some
 * other run linked first keeps that run's media; this batch's rows for it are deleted before the commit.
 * Per file, a transaction of its own took five round trips and a commit: 3 ms of the event loop's time per image
 * in socket writes alone, and a flush of the WAL each.
 * Lanes hand a row over and go on to the next file, but the one whose row fills a batch waits for its commit.
 * `written` runs after each commit, once per row.
 */
export class ImageRowWriter {
  private waiting: Array<ImageRow & { id: string }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly deps: ImageRowDeps,
    private readonly written: () => Promise<void>,
  ) {}

  /** Queues the row; rejects when an earlier batch failed (the chunk then fails, its files to be done again). */
  async add(row: ImageRow): Promise<void> {
    if (this.failure) throw this.failure;
    this.waiting.push({ ...row, id: randomUUID() });
    if (this.waiting.length >= BATCH_ROWS) {
      await this.flush(); // the lane that fills a batch waits for its commit: at most one batch forms while one is written
    } else {
      this.timer ??= setTimeout(() => void this.flush().catch(() => {}), BATCH_WAIT_MS);
    }
  }

  /** Writes whatever waits; resolves once every batch so far is committed, rejects with the first failure. */
  async drain(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
  }

  private flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting.splice(0);
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      if (this.failure) return;
      try {
        await this.write(batch);
        for (let i = 0; i < batch.length; i++) await this.written();
      } catch (err) {
        this.failure ??= err;
      }
    });
    return this.writing;
  }

  private async write(batch: Array<ImageRow & { id: string }>): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.media.insertMany(trx, batch.map((row) => ({ ...row.media, id: row.id })));
      const embedded = batch.filter((row) => row.embedding);
      await this.deps.media.insertEmbeddings(trx, embedded.map((row) => ({ mediaId: row.id, embedding: row.embedding! })));
      const linked = await this.deps.ingestion.linkMany(trx, batch.map((row) => ({ fileId: row.fileId, mediaId: row.id })));
      const unlinked = batch.filter((row) => !linked.has(row.fileId)).map((row) => row.id);
      if (unlinked.length > 0) await this.deps.media.deleteMany(trx, unlinked);
    });
  }
}
