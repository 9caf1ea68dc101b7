import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { NewMedia } from '../../adapters/db/schema.js';
import type { MediaEmbedding } from '../../adapters/media/image.js';
import { vectorToBytes } from '../../adapters/vectors/vector-bytes.js';
import { wideRows } from '../versions/cluster-summaries.js';
import { type ListAnchor, listAnchor } from './list-anchors.js';

/** What the version's index says about a media item. */
const INDEX_COLUMNS = [
  'vm.uniqueness_score',
  'vm.is_outlier',
  'vm.duplicate_group',
  'vm.cluster_l0',
  'vm.cluster_l1',
  'vm.cluster_l2',
  'vm.cluster_l3',
  'vm.cluster_l4',
  'vm.tags',
  'vm.label',
  'vm.custom_fields',
  'vm.caption',
  'vm.objects',
] as const;

export type MediaInVersion = Awaited<ReturnType<MediaRepo['findInHead']>> & {};

export class MediaRepo {
  constructor(private readonly db: Db) {}

  async insert(trx: Db, media: NewMedia): Promise<string> {
    const { id } = await trx.insertInto('media').values(media).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Rows with their ids chosen by the caller, in one statement. */
  async insertMany(trx: Db, media: Array<NewMedia & { id: string }>): Promise<void> {
    if (media.length > 0) await trx.insertInto('media').values(media).execute();
  }

  async insertEmbeddings(trx: Db, rows: Array<{ mediaId: string; embedding: MediaEmbedding }>): Promise<void> {
    if (rows.length === 0) return;
    await trx
      .insertInto('media_embeddings')
      .values(rows.map(({ mediaId, embedding }) => ({ media_id: mediaId, model: embedding.model, vector: vectorToBytes(embedding.vector) })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async deleteMany(trx: Db, ids: string[]): Promise<void> {
    if (ids.length > 0) await trx.deleteFrom('media').where('id', 'in', ids).execute();
  }

  /** A media item as the dataset's head version sees it; undefined when it is not part of it. */
  async findInHead(datasetId: string, mediaId: string) {
    return this.db
      .selectFrom('media as m')
      .innerJoin('version_media as vm', 'vm.media_id', 'm.id')
      .innerJoin('datasets as d', 'd.head_version_id', 'vm.version_id')
      .selectAll('m')
      .select(INDEX_COLUMNS)
      .where('d.id', '=', datasetId)
      .where('m.id', '=', mediaId)
      .executeTakeFirst();
  }

  /**
   * A page of the head's media, oldest first. The head is named by its id: joined to the dataset's row instead,
   * the views read every version of the dataset before keeping the head's. The page is chosen over membership
   * alone, in the order of an index on the version rows (media_created_at, migration 0032), and only its media are
   * then read with their annotations.
   */
  async listInHead(head: string | null, page: { limit: number; offset: number; mediaType?: 'IMAGE' | 'VIDEO' | 'VIDEO_FRAME' }) {
    if (!head) return { rows: [], total: 0 };
    const base = await this.db.selectFrom('version_bases').select('base_id').where('version_id', '=', head).executeTakeFirst();
    const ofType = (alias: string) =>
      page.mediaType ? sql`and exists (select 1 from media m where m.id = ${sql.ref(`${alias}.media_id`)} and m.media_type = ${page.mediaType})` : sql``;
    const anchor = await listAnchor(this.db, head, page.mediaType ?? '', page.offset);
    const [picked, total] = await Promise.all([
      base ? this.db.transaction().execute((trx) => this.pageIds(trx, head, base.base_id, page, ofType, anchor)) : this.pageIds(this.db, head, null, page, ofType, anchor),
      this.total(
        head,
        page.mediaType ?? '',
        sql`select count(*)::int as total from (
          select r.media_id from version_rows r where r.version_id = ${head}::uuid ${ofType('r')}
          ${base ? sql`union all select b.media_id from version_rows b where b.version_id = ${base.base_id}::uuid ${ofType('b')}
            and not exists (select 1 from version_rows o where o.version_id = ${head}::uuid and o.media_id = b.media_id)` : sql``}) s`,
      ),
    ]);
    const ids = picked.map((r) => r.id);
    if (ids.length === 0) return { rows: [], total };
    // Both sides take the ids: PostgreSQL carries an equality across a join but not an IN list, and each side needs its
    // own to be read by key. Tags and fields are probed per media: through version_media every tag and field row of the
    // version was merged in (200k media: 64 ms a page).
    const { rows } = await sql<NonNullable<MediaInVersion>>`
      select m.*, w.uniqueness_score, w.is_outlier, w.duplicate_group, w.cluster_l0, w.cluster_l1, w.cluster_l2, w.cluster_l3, w.cluster_l4,
        w.caption, w.objects, coalesce(a.tags, '{}') as tags, a.label, coalesce(f.custom_fields, '{}') as custom_fields
      from media m join ${wideRows(head, base?.base_id ?? null)} w on w.media_id = m.id
      left join lateral (select x.tags, x.label from version_annotations x where x.version_id = ${head}::uuid and x.media_id = m.id limit 1) a on true
      left join lateral (select x.custom_fields from version_fields x where x.version_id = ${head}::uuid and x.media_id = m.id limit 1) f on true
      where m.id = any(${ids}::uuid[]) and w.media_id = any(${ids}::uuid[])
      order by m.created_at, m.id`.execute(this.db);
    return { rows, total };
  }

  /**
   * The ids of a page: the head's own rows and, named by its id, those of its base it does not hold, each arm walking
   * its index in the list's order (version_id, media_created_at, media_id) no further than the page's end. The base
   * arm skips the head's own media through a hash of them (work_mem raised for it): an anti-join there was hashed and
   * the whole base sorted (100k: 96 ms a first page, 187 ms a middle one). Given the head's list anchor at or before
   * the offset (list-anchors.ts), each arm starts at its key and the page skips only the media between.
   */
  private async pageIds(
    db: Db,
    head: string,
    baseId: string | null,
    page: { limit: number; offset: number },
    ofType: (alias: string) => RawBuilder<unknown>,
    anchor: ListAnchor | undefined,
  ) {
    const offset = page.offset - (anchor?.position ?? 0);
    const end = offset + page.limit;
    const from = (alias: string) =>
      anchor ? sql`and (${sql.ref(`${alias}.media_created_at`)}, ${sql.ref(`${alias}.media_id`)}) >= (${anchor.createdAt}::timestamptz, ${anchor.mediaId}::uuid)` : sql``;
    if (baseId) await setWorkMem(db, '64MB');
    const inherited = baseId
      ? sql`union all (select b.media_id, b.media_created_at from version_rows b where b.version_id = ${baseId}::uuid ${ofType('b')} ${from('b')}
          and b.media_id not in (select o.media_id from version_rows o where o.version_id = ${head}::uuid)
          order by b.media_created_at, b.media_id limit ${end})`
      : sql``;
    const { rows } = await sql<{ id: string }>`select s.media_id as id from (
        (select r.media_id, r.media_created_at from version_rows r where r.version_id = ${head}::uuid ${ofType('r')} ${from('r')}
          order by r.media_created_at, r.media_id limit ${end}) ${inherited}) s
      order by s.media_created_at, s.media_id limit ${page.limit} offset ${offset}`.execute(db);
    return rows;
  }

  /** The list's total for the version and type (all types: ''), counted once: a head's rows never change. */
  private async total(versionId: string, mediaType: string, count: RawBuilder<unknown>): Promise<number> {
    const kept = await this.db
      .selectFrom('media_list_totals')
      .select('total')
      .where('version_id', '=', versionId)
      .where('media_type', '=', mediaType)
      .executeTakeFirst();
    if (kept) return kept.total;
    const { rows } = await sql<{ total: number }>`with counted as (${count})
      insert into media_list_totals (version_id, media_type, total) select ${versionId}::uuid, ${mediaType}, total from counted
      on conflict (version_id, media_type) do update set total = excluded.total
      returning total`.execute(this.db);
    return rows[0]!.total;
  }

  async frames(parentId: string) {
    return this.db
      .selectFrom('media')
      .select(['id', 'frame_timestamp'])
      .where('parent_media_id', '=', parentId)
      .orderBy('frame_timestamp')
      .execute();
  }
}
