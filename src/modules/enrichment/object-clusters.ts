import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import type { StoredObject } from '../../adapters/db/schema.js';
import { embeddingPrior } from '../../adapters/models/embedding-prior.js';
import { CLUSTER_LEVELS } from '../../core/clustering.js';
import type { IndexOutput } from '../indexing/compute-index.js';
import { computeIndexOffThread } from '../indexing/index-runner.js';
import { clusterUuid } from '../indexing/version-indexer.js';
import type { EnrichmentRepo } from './enrichment.repo.js';
import { objectEmbeddingBytes, storeObjectEmbeddings, storeObjectGraph } from '../label-errors/object-embeddings.repo.js';

export interface ObjectClusterDeps {
  db: Db;
  blobs: BlobStore;
  repo: EnrichmentRepo;
  model: string;
  dimensions: number;
  threads: number;
  /** Nice value of the build's threads (BACKGROUND_NICE); 0 when absent. */
  nice?: number;
}

/**
 * The index computation over `n` objects' crop embeddings (handed over: the thread takes their buffer), as media are
 * indexed but without a search index, and their k-NN graph stored as a blob (graph-file.ts) for label errors.
 */
export async function indexObjects(
  deps: Pick<ObjectClusterDeps, 'blobs' | 'model' | 'dimensions' | 'threads' | 'nice'>,
  vectors: Float32Array,
  n: number,
  signal: AbortSignal,
): Promise<{ output: IndexOutput; graphHash: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-objects-'));
  try {
    const graphPath = path.join(dir, 'graph.bin');
    const input = { vectors, dimensions: deps.dimensions, phashes: new Array<null>(n).fill(null), prior: embeddingPrior(deps.model), threads: deps.threads, indexPath: null, graphPath, releaseVectors: true };
    const output = await computeIndexOffThread(input, signal, undefined, deps.nice);
    return { output, graphHash: (await deps.blobs.put(createReadStream(graphPath))).hash };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Clusters a task's detected objects by their crop embeddings, as media are clustered (same graph, levels
 * and scores), so Explore can show objects as entities; writes cluster ids and uniqueness onto the staged
 * objects and moves the embeddings out of them, one byte per dimension, into object_embeddings, with the objects'
 * k-NN graph as a blob in object_graphs (label errors read both). Safe to rerun.
 */
export async function clusterObjects(deps: ObjectClusterDeps, taskId: string, signal: AbortSignal): Promise<number> {
  const owners: Array<{ mediaId: string; objects: Array<StoredObject & { embedding?: number[] }> }> = [];
  const vectors: number[][] = [];
  for await (const row of deps.repo.stagedObjects(taskId)) {
    owners.push({ mediaId: row.media_id, objects: row.objects });
    for (const o of row.objects) if (o.embedding) vectors.push(o.embedding);
  }
  const n = vectors.length;
  if (n === 0 || owners.some((owner) => owner.objects.some((o) => !o.embedding))) return n; // already clustered by an earlier run
  const flat = new Float32Array(n * deps.dimensions);
  vectors.forEach((v, i) => flat.set(v, i * deps.dimensions));
  const ids = owners.flatMap((owner) => owner.objects.map((o) => o.object_id));
  const objectMedia = owners.flatMap((owner) => owner.objects.map(() => owner.mediaId));
  const kept = objectEmbeddingBytes(deps.model, flat, deps.dimensions);

  let clusters: string[][];
  let uniqueness: ArrayLike<number>;
  let graphHash: string | null = null;
  if (n === 1) {
    clusters = [Array.from({ length: CLUSTER_LEVELS }, (_, level) => clusterUuid(`${taskId}/objects`, level, ids[0]!))];
    uniqueness = [1];
  } else {
    const indexed = await indexObjects(deps, flat, n, signal);
    clusters = ids.map((_, i) => indexed.output.levels.map((labels, level) => clusterUuid(`${taskId}/objects`, level, ids[labels[i]!]!)));
    uniqueness = indexed.output.uniqueness;
    graphHash = indexed.graphHash;
  }

  let i = 0;
  await deps.db.transaction().execute(async (trx) => {
    for (const owner of owners) {
      const objects = owner.objects.map(({ embedding: _embedding, ...o }) => {
        const k = i++;
        return { ...o, clusters: clusters[k]!, uniqueness_score: Math.round(Number(uniqueness[k]) * 10000) / 10000 };
      });
      await deps.repo.setStagedObjects(trx, taskId, owner.mediaId, objects);
    }
    await storeObjectEmbeddings(trx, taskId, deps.model, ids, objectMedia, kept, deps.dimensions);
    if (graphHash) await storeObjectGraph(trx, taskId, n, graphHash);
  });
  return n;
}
