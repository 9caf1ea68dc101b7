import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import type { EmbeddingConfig } from '../../adapters/db/schema.js';
import { embeddingPrior } from '../../adapters/models/embedding-prior.js';
import { hnswParams } from '../../adapters/vectors/usearch-index.js';
import { DEFAULT_LEVEL_RULES, clusterSizes } from '../../core/clustering.js';
import type { BlobGcRepo } from '../media/blob-gc.repo.js';
import { NEIGHBOURS_K } from './compute-index.js';
import { mapParams } from './embedding-map.js';
import { computeIndexOffThread } from './index-runner.js';
import type { IndexingRepo, IndexResultRows } from './indexing.repo.js';

export interface VersionIndexerDeps {
  db: Db;
  blobs: BlobStore;
  indexing: IndexingRepo;
  blobGc: BlobGcRepo;
  embedding: EmbeddingConfig;
  indexThreads: number;
  /** Nice value of the index build's threads (BACKGROUND_NICE). */
  backgroundNice: number;
}

export type Progress = (fraction: number, message: string) => Promise<void>;

export const modelKey = (config: EmbeddingConfig): string => `${config.model}@${config.version}`;

const WRITE_CHUNK = 5000;

/**
 * Indexes one unsealed version in place: reads its vectors, computes graph, clusters and scores off the
 * event loop, writes them onto its own version rows and saves the ANN index as a blob. Safe to rerun.
 */
export async function indexVersion(deps: VersionIndexerDeps, versionId: string, signal: AbortSignal, progress: Progress): Promise<{ items: number }> {
  const model = modelKey(deps.embedding);
  const { dimensions } = deps.embedding;
  const total = await deps.indexing.countMembers(versionId);
  await progress(0, `Indexing: reading the embeddings of ${total} media`);
  const loaded = await deps.indexing.loadVectors(versionId, model, dimensions, total, (n) => progress(total === 0 ? 0.2 : (0.2 * n) / total, `Indexing: read ${n} embeddings of ${total} media`), signal);
  const n = loaded.mediaIds.length;

  await progress(0.2, `Indexing: neighbour graph and clusters of ${n} media`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-index-'));
  try {
    const indexPath = path.join(dir, 'index.usearch');
    const graphPath = path.join(dir, 'graph.bin');
    const output = await computeIndexOffThread(
      { vectors: loaded.vectors, dimensions, phashes: loaded.phashes, prior: embeddingPrior(model), threads: deps.indexThreads, indexPath: n > 0 ? indexPath : null, graphPath: n > 0 ? graphPath : null, releaseVectors: true },
      signal,
      (fraction, message) => void progress(0.2 + 0.5 * fraction, `Indexing: ${message}`).catch(() => {}),
      deps.backgroundNice,
    );
    await progress(0.7, `Indexing: saving the index of ${n} media`);
    const ann = n > 0 ? await deps.blobs.put(createReadStream(indexPath)) : null;
    const graphBlob = n > 0 ? await deps.blobs.put(createReadStream(graphPath)) : null;

    const clusterIds = output.levels.map((labels, level) => labelIds(versionId, level, labels, loaded.mediaIds));
    const level0Sizes = clusterSizes(output.levels[0]!);
    await deps.db.transaction().execute(async (trx) => {
      // A full update of every row (9 s at 200k): skipped when the fork left the results out.
      if (await deps.indexing.hasResults(trx, versionId)) await deps.indexing.clearResults(trx, versionId);
      for (let start = 0; start < n; start += WRITE_CHUNK) {
        signal.throwIfAborted();
        const end = Math.min(n, start + WRITE_CHUNK);
        const rows: IndexResultRows = { mediaIds: [], ordinals: [], clusters: clusterIds.map(() => []), uniqueness: [], nearest: [], outliers: [], duplicateGroups: [], mapX: [], mapY: [] };
        for (let i = start; i < end; i++) {
          rows.mediaIds.push(loaded.mediaIds[i]!);
          rows.ordinals.push(i);
          clusterIds.forEach((ids, level) => rows.clusters[level]!.push(ids[i]!));
          rows.uniqueness.push(output.uniqueness[i]!);
          rows.nearest.push(Number.isNaN(output.nearest[i]!) ? null : output.nearest[i]!);
          rows.outliers.push(output.outliers[i] === 1);
          rows.duplicateGroups.push(level0Sizes[output.levels[0]![i]!]! > 1 ? clusterIds[0]![i]! : null);
          rows.mapX.push(output.map.x[i]!);
          rows.mapY.push(output.map.y[i]!);
        }
        await deps.indexing.writeResults(trx, versionId, rows);
        await progress(0.7 + (0.3 * end) / n, `Indexing: wrote ${end} of ${n} media`);
      }
      await deps.indexing.videosFollowFrames(trx, versionId);
      const replaced = await deps.indexing.saveIndex(trx, {
        versionId,
        model,
        dimensions,
        itemCount: n,
        mean: output.mean,
        annBlobHash: ann?.hash ?? null,
        graphBlobHash: graphBlob?.hash ?? null,
        params: {
          k: NEIGHBOURS_K,
          exact_graph: output.exact,
          hnsw: hnswParams(n),
          levels: DEFAULT_LEVEL_RULES,
          uniqueness_scale: output.scale.uniqueness,
          outlier_cut: output.scale.outlierCut,
          seconds: output.seconds,
          map: mapParams(output.map),
        },
      });
      if (replaced.length > 0) await deps.blobGc.queue(replaced);
    });
    return { items: n };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stable cluster UUIDs: derived from the version, the level and the cluster's first member, so a rerun gives the same ids. */
function labelIds(versionId: string, level: number, labels: Int32Array, mediaIds: string[]): string[] {
  const byLabel = new Map<number, string>();
  return Array.from(labels, (label) => {
    let id = byLabel.get(label);
    if (!id) {
      id = clusterUuid(versionId, level, mediaIds[label]!);
      byLabel.set(label, id);
    }
    return id;
  });
}

/** A cluster's id from its version, level and first member: a name-based (version 5 layout) UUID. */
export function clusterUuid(versionId: string, level: number, firstMediaId: string): string {
  const h = createHash('sha1').update(`${versionId}/${level}/${firstMediaId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
