import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { CHANNELS } from '../../adapters/events/pg-events.js';

export interface NotificationRow {
  id: string;
  seq: number;
  user_id: string;
  dataset_id: string | null;
  entity_type: string;
  entity_id: string;
  title: string;
  message: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
}

export interface NewNotification {
  user_id: string;
  dataset_id: string;
  entity_type: string;
  entity_id: string;
  batch_id: string;
  title: string;
  message: string;
  metadata: Record<string, unknown>;
}

export interface NotificationFilter {
  userId: string;
  datasetId?: string;
  unreadOnly?: boolean;
}

const COLUMNS = ['id', 'seq', 'user_id', 'dataset_id', 'entity_type', 'entity_id', 'title', 'message', 'metadata', 'created_at', 'read_at'] as const;

/** A user's notifications; writers go through `insert`, which keeps `seq` in commit order. */
export class NotificationsRepo {
  constructor(private readonly db: Db) {}

  private filtered(f: NotificationFilter) {
    let q = this.db.selectFrom('notifications').where('user_id', '=', f.userId);
    if (f.datasetId) q = q.where('dataset_id', '=', f.datasetId);
    if (f.unreadOnly) q = q.where('read_at', 'is', null);
    return q;
  }

  /** Newest first. */
  async page(f: NotificationFilter, limit: number, offset: number): Promise<{ rows: NotificationRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(f).select(COLUMNS).orderBy('seq', 'desc').limit(limit).offset(offset).execute(),
      this.filtered(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async unreadCount(userId: string, datasetId?: string): Promise<number> {
    const row = await this.filtered({ userId, datasetId, unreadOnly: true }).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** False when the notification is missing, another user's, or already read. */
  async markRead(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('notifications')
      .set({ read_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async markAllRead(userId: string, datasetId?: string): Promise<number> {
    let q = this.db.updateTable('notifications').set({ read_at: sql<Date>`now()` }).where('user_id', '=', userId).where('read_at', 'is', null);
    if (datasetId) q = q.where('dataset_id', '=', datasetId);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Every user's notifications after `seq`, oldest first: what the streams of one process may need. */
  after(seq: number, limit: number): Promise<NotificationRow[]> {
    return this.db.selectFrom('notifications').select(COLUMNS).where('seq', '>', seq).orderBy('seq').limit(limit).execute();
  }

  /** One user's notifications after `seq`, oldest first: what a reconnecting stream missed. */
  userAfter(userId: string, seq: number, datasetId: string | null, limit: number): Promise<NotificationRow[]> {
    return this.filtered({ userId, datasetId: datasetId ?? undefined }).select(COLUMNS).where('seq', '>', seq).orderBy('seq').limit(limit).execute();
  }

  async maxSeq(): Promise<number> {
    const row = await this.db.selectFrom('notifications').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /**
   * Inserts in the caller's transaction, skipping ones already there (same view, batch and user), and
   * announces them at commit. One advisory lock serialises writers until they commit, so `seq` grows in
   * commit order: a reader that saw seq N never later finds a new row below N.
   */
  async insert(trx: Db, rows: NewNotification[]): Promise<number> {
    if (rows.length === 0) return 0;
    await sql`select pg_advisory_xact_lock(hashtext('loupe_notifications'))`.execute(trx);
    const inserted = await trx
      .insertInto('notifications')
      .values(rows.map((r) => ({ ...r, metadata: JSON.stringify(r.metadata) })))
      .onConflict((oc) => oc.columns(['entity_id', 'batch_id', 'user_id']).doNothing())
      .returning('seq')
      .execute();
    if (inserted.length === 0) return 0;
    const payload = JSON.stringify({ seq: Math.max(...inserted.map((r) => Number(r.seq))) });
    await sql`select pg_notify(${CHANNELS.notificationCreated}, ${payload})`.execute(trx);
    return inserted.length;
  }
}
