import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { indexObjects } from '../../src/modules/enrichment/object-clusters.js';
import { objectEmbeddingBytes, storeObjectGraph } from '../../src/modules/label-errors/object-embeddings.repo.js';
import type { Loupe } from '../../src/server.js';
import { copyLines, regenerate, seededMediaIds } from '../lib/scale-seed.js';
import { CLUSTER_LEVELS } from '../../src/core/clustering.js';

/** One object in OBJECT_FLIP_EVERY (not isolated) has its class flipped to the next, at another offset than the media labels'. */
const OBJECT_FLIP_EVERY = 100;
const OBJECT_FLIP_AT = 50;

/**
 * One detected object on every seeded media of the (not yet indexed) head, as an object detection leaves them: its
 * class `class-<centre mod classes>` (flipped for one in OBJECT_FLIP_EVERY), a box, cluster ids per level (one per
 * centre, an isolated point its own), its crop embedding in object_embeddings (the media's synthetic vector, kept as
 * clusterObjects keeps it) at its ordinal, and the objects' k-NN graph built and stored as clusterObjects stores it,
 * under a made-up detection task id. Returns the flipped objects' ids.
 */
export async function plantObjects(loupe: Loupe, headId: string, n: number, centreOf: Int32Array, classes: number, model: string, d: number): Promise<{ flipped: string[]; graphSeconds: number }> {
  const { db } = loupe.container.database;
  const mediaIds = await seededMediaIds(db, headId, n);
  const taskId = randomUUID();
  const objectIds = Array.from({ length: n }, () => randomUUID());
  const flipped: string[] = [];
  const classOf = (i: number) => {
    const c = centreOf[i]! >= 0 ? centreOf[i]! % classes : i % classes;
    if (centreOf[i]! >= 0 && i % OBJECT_FLIP_EVERY === OBJECT_FLIP_AT) {
      flipped.push(objectIds[i]!);
      return (c + 1) % classes;
    }
    return c;
  };
  const clusterIds = new Map<number, string[]>();
  const clustersOf = (i: number) => {
    const key = centreOf[i]! >= 0 ? centreOf[i]! : -1 - i;
    let ids = clusterIds.get(key);
    if (!ids) clusterIds.set(key, (ids = Array.from({ length: CLUSTER_LEVELS }, () => randomUUID())));
    return ids;
  };

  const vectors = regenerate(n, d);
  const q8 = objectEmbeddingBytes(model, vectors, d);
  await copyLines(loupe, 'object_embeddings (object_id, media_id, model, task_id, vector, ordinal)', n, (i) =>
    `${objectIds[i]}\t${mediaIds[i]}\t${model}\t${taskId}\t\\\\x${Buffer.from(q8.buffer, i * d, d).toString('hex')}\t${i}\n`,
  );

  const start = performance.now();
  const threads = loupe.container.config.indexThreads;
  const { graphHash } = await indexObjects({ blobs: loupe.container.blobs, model, dimensions: d, threads }, vectors, n, new AbortController().signal);
  await storeObjectGraph(db, taskId, n, graphHash);
  const graphSeconds = (performance.now() - start) / 1000;

  await sql`create unlogged table bench_objects (media_id uuid primary key, objects jsonb not null)`.execute(db);
  try {
    await copyLines(loupe, 'bench_objects (media_id, objects)', n, (i) => {
      const object = { object_id: objectIds[i], label: `class-${classOf(i)}`, score: 0.9, box: { x: 10, y: 10, width: 100, height: 80 }, clusters: clustersOf(i), uniqueness_score: 0.5 };
      return `${mediaIds[i]}\t${JSON.stringify([object]).replaceAll('\\', '\\\\')}\n`;
    });
    await sql`update version_rows r set objects = b.objects from bench_objects b where r.version_id = ${headId}::uuid and r.media_id = b.media_id`.execute(db);
  } finally {
    await sql`drop table bench_objects`.execute(db);
  }
  await sql`vacuum analyze object_embeddings, version_rows`.execute(db);
  return { flipped, graphSeconds };
}
