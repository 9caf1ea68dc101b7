import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { MatchCounts } from '../explore/explore-rows.js';

export interface ViewRow {
  id: string;
  dataset_id: string;
  name: string;
  query: Record<string, unknown>;
  created_by: string;
  created_by_email: string;
  monitoring_enabled: boolean;
  alerting_enabled: boolean;
  created_at: Date;
  updated_at: Date;
  notify_emails: string[];
}

export interface ViewChanges {
  name?: string;
  query?: object;
  monitoring_enabled?: boolean;
  alerting_enabled?: boolean;
}

/** Saved views of a dataset and the users each alerts besides its creator. */
export class ViewsRepo {
  constructor(private readonly db: Db) {}

  private select(db: Db = this.db) {
    return db
      .selectFrom('saved_views as v')
      .innerJoin('users as u', 'u.id', 'v.created_by')
      .select([
        'v.id',
        'v.dataset_id',
        'v.name',
        'v.query',
        'v.created_by',
        'u.email as created_by_email',
        'v.monitoring_enabled',
        'v.alerting_enabled',
        'v.created_at',
        'v.updated_at',
        sql<string[]>`array(select ru.email from saved_view_recipients r join users ru on ru.id = r.user_id where r.view_id = v.id order by ru.email)`.as(
          'notify_emails',
        ),
      ]);
  }

  /** Oldest first, as they were saved. */
  list(datasetId: string): Promise<ViewRow[]> {
    return this.select().where('v.dataset_id', '=', datasetId).orderBy('v.created_at').orderBy('v.id').execute();
  }

  find(datasetId: string, viewId: string): Promise<ViewRow | undefined> {
    return this.select().where('v.dataset_id', '=', datasetId).where('v.id', '=', viewId).executeTakeFirst();
  }

  async insert(values: Required<ViewChanges> & { dataset_id: string; created_by: string }, recipientIds: string[]): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('saved_views')
        .values({ ...values, query: JSON.stringify(values.query) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.setRecipients(trx, id, recipientIds);
      return id;
    });
  }

  /** `recipientIds` replaces the list when given. */
  async update(viewId: string, changes: ViewChanges, recipientIds: string[] | undefined): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const { query, ...rest } = changes;
      await trx
        .updateTable('saved_views')
        .set({ ...rest, ...(query ? { query: JSON.stringify(query) } : {}), updated_at: sql<Date>`now()` })
        .where('id', '=', viewId)
        .execute();
      if (recipientIds) {
        await trx.deleteFrom('saved_view_recipients').where('view_id', '=', viewId).execute();
        await this.setRecipients(trx, viewId, recipientIds);
      }
    });
  }

  private async setRecipients(trx: Db, viewId: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await trx
      .insertInto('saved_view_recipients')
      .values(userIds.map((user_id) => ({ view_id: viewId, user_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The counts kept for these views at `versionId`, by view id, where counted for the query each has now. */
  async keptCounts(viewIds: string[], versionId: string): Promise<Map<string, MatchCounts>> {
    if (viewIds.length === 0) return new Map();
    const { rows } = await sql<{ view_id: string; counts: MatchCounts }>`select c.view_id, c.counts from saved_view_counts c
      join saved_views v on v.id = c.view_id and v.query = c.query
      where c.view_id = any(${viewIds}::uuid[]) and c.version_id = ${versionId}::uuid`.execute(this.db);
    return new Map(rows.map((r) => [r.view_id, r.counts]));
  }

  /** Keeps a view's counts for `query` at `versionId`, replacing those kept before. */
  async keepCounts(viewId: string, versionId: string, query: object, counts: MatchCounts): Promise<void> {
    await sql`with gone as (delete from saved_view_counts where view_id = ${viewId}::uuid and version_id <> ${versionId}::uuid)
      insert into saved_view_counts (view_id, version_id, query, counts)
      select ${viewId}::uuid, ${versionId}::uuid, ${JSON.stringify(query)}::jsonb, ${JSON.stringify(counts)}::jsonb
      where exists (select 1 from saved_views where id = ${viewId}::uuid)
      on conflict (view_id, version_id) do update set query = excluded.query, counts = excluded.counts`.execute(this.db);
  }

  async remove(viewId: string): Promise<void> {
    await this.db.deleteFrom('saved_views').where('id', '=', viewId).execute();
  }

  /** The users, by e-mail (any case), who own the dataset or have it shared with them. */
  async usersWithAccess(datasetId: string, emails: string[]): Promise<Array<{ id: string; email: string }>> {
    if (emails.length === 0) return [];
    const { rows } = await sql<{ id: string; email: string }>`
      select u.id, u.email from users u
      where lower(u.email) = any(${emails.map((e) => e.toLowerCase())}::text[])
        and (exists (select 1 from datasets d where d.id = ${datasetId}::uuid and d.owner_id = u.id)
          or exists (select 1 from dataset_access a where a.dataset_id = ${datasetId}::uuid and a.user_id = u.id))`.execute(this.db);
    return rows;
  }

  /**
   * A clone gets its source's views, owned by the clone's owner (the only user who can see the clone at
   * first), with the same switches and no extra recipients; in the caller's (the clone's commit) transaction.
   */
  async copyAll(trx: Db, fromDatasetId: string, toDatasetId: string, ownerId: string): Promise<void> {
    await sql`
      insert into saved_views (dataset_id, name, query, created_by, monitoring_enabled, alerting_enabled, created_at, updated_at)
      select ${toDatasetId}::uuid, name, query, ${ownerId}::uuid, monitoring_enabled, alerting_enabled, created_at, now()
      from saved_views where dataset_id = ${fromDatasetId}::uuid
        and not exists (select 1 from saved_views where dataset_id = ${toDatasetId}::uuid)
      order by created_at, id`.execute(trx);
  }
}
