import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import { embeddingPrior } from '../../adapters/models/embedding-prior.js';
import { quantizeRows } from '../../adapters/vectors/forest-graph.js';
import { centreOne } from '../indexing/compute-index.js';

/** Object embeddings inserted per statement. */
const WRITE_CHUNK = 2000;

/**
 * The crop embeddings label errors keep (migration 0048): each centred on the model's prior mean (the objects' own mean
 * for a model without one), re-normalised, one byte per dimension (quantizeRows), so a run reads them straight into
 * its rows. Made before the vectors go to the clustering thread, which takes their buffer.
 */
export function objectEmbeddingBytes(model: string, vectors: Float32Array, d: number): Int8Array {
  const n = vectors.length / d;
  const mean = embeddingPrior(model)?.mean ?? meanOf(vectors, d);
  const q8 = new Int8Array(n * d);
  const row = new Float32Array(d);
  for (let i = 0; i < n; i++) {
    row.set(vectors.subarray(i * d, (i + 1) * d));
    quantizeRows(centreOne(row, mean), d, q8.subarray(i * d, (i + 1) * d));
  }
  return q8;
}

/**
 * Stores the bytes of objectEmbeddingBytes under each object's id, with its media and its position in the task's graph
 * (its index in `ids`). Rerun-safe: an object keeps its first row.
 */
export async function storeObjectEmbeddings(db: Db, taskId: string, model: string, ids: string[], mediaIds: string[], q8: Int8Array, d: number): Promise<void> {
  for (let start = 0; start < ids.length; start += WRITE_CHUNK) {
    const end = Math.min(ids.length, start + WRITE_CHUNK);
    const bytes = Array.from({ length: end - start }, (_, r) => Buffer.from(q8.buffer, q8.byteOffset + (start + r) * d, d));
    await sql`insert into object_embeddings (object_id, media_id, model, task_id, vector, ordinal)
      select r.id, r.media_id, ${model}, ${taskId}::uuid, r.v, ${start}::int + r.n::int - 1
      from unnest(${ids.slice(start, end)}::uuid[], ${mediaIds.slice(start, end)}::uuid[], ${bytes}::bytea[]) with ordinality r(id, media_id, v, n)
      on conflict (object_id) do nothing`.execute(db);
  }
}

/** Records the blob of the task's object graph (graph-file.ts; positions are the objects' `ordinal`). Rerun-safe. */
export async function storeObjectGraph(db: Db, taskId: string, itemCount: number, graphBlobHash: string): Promise<void> {
  await sql`insert into object_graphs (task_id, item_count, graph_blob_hash) values (${taskId}::uuid, ${itemCount}::int, ${graphBlobHash})
    on conflict (task_id) do update set item_count = excluded.item_count, graph_blob_hash = excluded.graph_blob_hash`.execute(db);
}

function meanOf(vectors: Float32Array, d: number): Float32Array {
  const n = vectors.length / d;
  const mean = new Float32Array(d);
  for (let i = 0; i < n; i++) for (let x = 0; x < d; x++) mean[x] = mean[x]! + vectors[i * d + x]! / n;
  return mean;
}
