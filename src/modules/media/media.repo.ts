import type { Db } from '../../adapters/db/database.js';
import type { NewMedia } from '../../adapters/db/schema.js';
import type { MediaEmbedding } from '../../adapters/media/image.js';
import { vectorToBytes } from '../../adapters/vectors/vector-bytes.js';

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
] as const;

export type MediaInVersion = Awaited<ReturnType<MediaRepo['findInHead']>> & {};

export class MediaRepo {
  constructor(private readonly db: Db) {}

  async insert(trx: Db, media: NewMedia): Promise<string> {
    const { id } = await trx.insertInto('media').values(media).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async insertEmbedding(trx: Db, mediaId: string, embedding: MediaEmbedding): Promise<void> {
    await trx
      .insertInto('media_embeddings')
      .values({ media_id: mediaId, model: embedding.model, vector: vectorToBytes(embedding.vector) })
      .onConflict((oc) => oc.doNothing())
      .execute();
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

  async listInHead(datasetId: string, page: { limit: number; offset: number; mediaType?: 'IMAGE' | 'VIDEO' | 'VIDEO_FRAME' }) {
    let q = this.db
      .selectFrom('media as m')
      .innerJoin('version_media as vm', 'vm.media_id', 'm.id')
      .innerJoin('datasets as d', 'd.head_version_id', 'vm.version_id')
      .where('d.id', '=', datasetId);
    if (page.mediaType) q = q.where('m.media_type', '=', page.mediaType);
    const [rows, count] = await Promise.all([
      q.selectAll('m').select(INDEX_COLUMNS).orderBy('m.created_at').orderBy('m.id').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: count.total };
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
