import { sql } from 'kysely';
import { refreshClusterSummaries } from '../../src/modules/versions/cluster-summaries.js';
import type { Loupe } from '../../src/server.js';

/**
 * One READY dataset whose head version holds `count` synthetic IMAGE media with a full index row each
 * (cluster ids at five levels, scores), written by INSERT ... SELECT over generate_series, plus its
 * creation snapshot, as the creation pipeline leaves it, vacuumed, analyzed and checkpointed. `blobs`
 * (optional) gives the media real stored bytes: media i gets blobs[i % blobs.length].
 */
export async function seedIndexedDataset(
  loupe: Loupe,
  ownerId: string,
  name: string,
  count: number,
  blobs: Array<{ hash: string; size: number }> = [],
): Promise<string> {
  const { db } = loupe.container.database;
  const datasetId = await loupe.container.services.datasets.create({ userId: ownerId, email: '' }, name);
  await db.transaction().execute(async (trx) => {
    const { id: versionId } = await trx.insertInto('versions').values({ dataset_id: datasetId, parent_id: null, task_id: null }).returning('id').executeTakeFirstOrThrow();
    const hashes = blobs.map((b) => b.hash);
    const sizes = blobs.map((b) => b.size);
    await sql`create temp table seeded on commit drop as
      select gen_random_uuid() as id, g from generate_series(1, ${count}::int) g`.execute(trx);
    await sql`insert into media (id, blob_hash, media_type, file_name, format, mime, size, width, height, quality_flags, exif)
      select id,
        case when ${hashes.length}::int > 0 then (${hashes}::text[])[1 + (g - 1) % greatest(${hashes.length}::int, 1)] else 'bench-' || g end,
        'IMAGE', 'synthetic-' || g || '.jpg', 'jpeg', 'image/jpeg',
        case when ${sizes.length}::int > 0 then (${sizes}::int8[])[1 + (g - 1) % greatest(${sizes.length}::int, 1)] else 150000 end,
        1024, 768, case when g % 17 = 0 then '{blurry}'::text[] else '{}'::text[] end,
        jsonb_build_object('captured_at', to_char(now() - g * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
      from seeded`.execute(trx);
    // Clusters: ~count/2 at level 0 down to ~count/1000 at level 4, as a real index spreads them.
    await sql`insert into version_rows (version_id, media_id, ordinal, cluster_l0, cluster_l1, cluster_l2, cluster_l3, cluster_l4,
        uniqueness_score, nn_similarity, is_outlier)
      select ${versionId}::uuid, id, g - 1,
        md5('l0' || (g / 2))::uuid, md5('l1' || (g / 10))::uuid, md5('l2' || (g / 50))::uuid, md5('l3' || (g / 200))::uuid,
        md5('l4' || (g / 1000))::uuid, random(), random(), g % 20 = 0
      from seeded`.execute(trx);
    await trx
      .updateTable('datasets')
      .set({ head_version_id: versionId, status_new: 'READY', n_images: count, n_videos: 0, progress: 100 })
      .where('id', '=', datasetId)
      .execute();
    // As a head version made by a real index has them (VersionsRepo.swapHead).
    await refreshClusterSummaries(trx, versionId, null);
    await loupe.container.jobDeps.SNAPSHOT_RESTORE.snapshots.record(trx, { datasetId, createdBy: ownerId, reason: 'creation' });
  });
  // As autovacuum and the checkpointer leave a dataset a few minutes after its creation: otherwise the vacuum of
  // the million new rows (visibility map, hint bits) and the checkpoint their WAL calls for run during whatever
  // the bench times next.
  await sql`vacuum analyze media, version_rows, versions, snapshots, datasets, cluster_summaries, version_summaries`.execute(db);
  await sql`checkpoint`.execute(db);
  return datasetId;
}
