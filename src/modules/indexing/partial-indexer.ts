import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { VectorIndex } from '../../adapters/vectors/usearch-index.js';
import { type ClusterLevelRule, DEFAULT_LEVEL_RULES, PHASH_MAX_DISTANCE } from '../../core/clustering.js';
import { centreOne } from './compute-index.js';
import { type MapBounds, type MapParams, placeAmong } from './embedding-map.js';
import type { IndexResultRows } from './indexing.repo.js';
import { type Progress, type VersionIndexerDeps, clusterUuid, modelKey } from './version-indexer.js';

interface Neighbour {
  ordinal: number;
  mediaId: string;
  clusters: string[];
  duplicateGroup: string | null;
  phash: string | null;
  map: { x: number; y: number } | null;
}

const SEARCH_K = 10;
/** New media whose neighbours are searched and read together, up front (at most SEARCH_K ordinals each). */
const PREFETCH_CHUNK = 200;

/**
 * Adds a batch of new media to a version without recomputing it (PARTIAL INDEX): each new item, in
 * media-id order, is placed in its nearest neighbour's cluster at every level whose similarity rule the
 * pair meets (level 0 also on a perceptual-hash match), else in a cluster of its own; it is scored against
 * the scales of the last full index and added to the ANN index so later items and searches find it.
 * Existing items keep their clusters and scores until a reindex. Safe to rerun: it redoes the whole batch.
 */
export async function attachNewMedia(deps: VersionIndexerDeps, versionId: string, signal: AbortSignal, progress: Progress): Promise<{ attached: number }> {
  const model = modelKey(deps.embedding);
  const base = await deps.indexing.baseIndex(versionId);
  if (!base || !base.ann_blob_hash || base.model !== model) throw new Error(`version ${versionId} has no ${model} index to attach media to`);
  const fresh = await deps.indexing.unindexedMedia(versionId, model);
  await progress(0, `Attaching ${fresh.length} new media to existing clusters`);

  const rules = (base.params.levels as ClusterLevelRule[] | undefined) ?? DEFAULT_LEVEL_RULES;
  const uniquenessScale = Number(base.params.uniqueness_scale ?? 0);
  const outlierCut = base.params.outlier_cut === null || base.params.outlier_cut === undefined ? null : Number(base.params.outlier_cut);
  const map = (base.params.map as MapParams | undefined) ?? null;
  const local = await deps.blobs.localFile(base.ann_blob_hash);
  let index: VectorIndex;
  try {
    index = VectorIndex.load(local.path, base.dimensions);
  } finally {
    await local.release();
  }

  const neighbours = await deps.indexing.neighbourReader(versionId);
  const known = new Map<number, Neighbour>();
  const vectors = fresh.map((item) => centreOne(item.vector, base.mean));
  // The rows of the base items the batch will meet, read up front a chunk of searches at a time: read item by item, a
  // batch of 1,000 made 1,000 round trips. The search below, which also sees the batch's items as they join, rarely
  // meets others. A chunk is one native call, so it is kept short enough not to hold the worker's loop for long.
  for (let start = 0; start < vectors.length; start += PREFETCH_CHUNK) {
    signal.throwIfAborted();
    const wanted = new Set<number>();
    for (const m of index.searchMany(vectors.slice(start, start + PREFETCH_CHUNK), SEARCH_K)) for (const o of m.ordinals) if (!known.has(o)) wanted.add(o);
    for (const n of await neighbours([...wanted])) known.set(n.ordinal, n);
    await progress((0.2 * Math.min(vectors.length, start + PREFETCH_CHUNK)) / vectors.length, `Finding the neighbours of ${fresh.length} new media`);
  }
  const rows: IndexResultRows = { mediaIds: [], ordinals: [], clusters: rules.map(() => []), uniqueness: [], nearest: [], outliers: [], duplicateGroups: [], mapX: [], mapY: [] };
  const gainedDuplicates = new Set<string>();
  for (const [i, item] of fresh.entries()) {
    signal.throwIfAborted();
    const vector = vectors[i]!;
    const matches = index.search(vector, SEARCH_K);
    const missing = Array.from(matches.ordinals).filter((o) => !known.has(o));
    for (const n of await neighbours(missing)) known.set(n.ordinal, n);
    const candidates = Array.from(matches.ordinals, (o, j) => ({ n: known.get(o), similarity: 1 - matches.distances[j]! })).filter((c) => c.n !== undefined);
    const best = candidates[0];
    const phashTwin = item.phash ? candidates.find((c) => c.n!.phash && hamming(c.n!.phash, item.phash!) <= PHASH_MAX_DISTANCE) : undefined;

    const clusters = rules.map((rule, level) => {
      if (level === 0 && phashTwin) return phashTwin.n!.clusters[0]!;
      return best && best.similarity >= rule.minSimilarity ? best.n!.clusters[level]! : clusterUuid(versionId, level, item.mediaId);
    });
    const twin = level0Twin(candidates, clusters[0]!);
    if (twin && !twin.duplicateGroup) {
      twin.duplicateGroup = twin.clusters[0]!;
      gainedDuplicates.add(twin.mediaId);
    }
    const ordinal = base.item_count + i;
    // On the map: the weighted mean of its neighbours' positions (a map made before this media's index has none).
    const onMap = candidates.filter((c) => c.n!.map !== null).map((c) => ({ ...c.n!.map!, similarity: c.similarity }));
    const position = map ? placeAmong(onMap, map.jitter, ordinal) : null;
    index.add(ordinal, vector);
    known.set(ordinal, { ordinal, mediaId: item.mediaId, clusters, duplicateGroup: twin ? clusters[0]! : null, phash: item.phash, map: position });
    rows.mapX.push(position?.x ?? null);
    rows.mapY.push(position?.y ?? null);

    const similarity = best?.similarity ?? Number.NaN;
    rows.mediaIds.push(item.mediaId);
    rows.ordinals.push(ordinal);
    clusters.forEach((id, level) => rows.clusters[level]!.push(id));
    rows.uniqueness.push(Number.isNaN(similarity) ? 1 : uniquenessScale === 0 ? 0 : Math.min(1, Math.max(0, 1 - similarity) / uniquenessScale));
    rows.nearest.push(Number.isNaN(similarity) ? null : similarity);
    rows.outliers.push(outlierCut !== null && similarity <= outlierCut);
    rows.duplicateGroups.push(twin ? clusters[0]! : null);
    if (i % 100 === 0) await progress(0.2 + (0.6 * (i + 1)) / fresh.length, `Attached ${i + 1} of ${fresh.length} new media`);
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-index-'));
  try {
    const indexPath = path.join(dir, 'index.usearch');
    await progress(0.85, `Saving the search index with ${fresh.length} new media`);
    index.save(indexPath);
    const ann = await deps.blobs.put(createReadStream(indexPath));
    await progress(0.95, `Writing the clusters of ${fresh.length} new media`);
    await deps.db.transaction().execute(async (trx) => {
      await deps.indexing.writeResults(trx, versionId, rows);
      await deps.indexing.markDuplicates(trx, versionId, [...gainedDuplicates]);
      await deps.indexing.videosFollowFrames(trx, versionId, rows.mediaIds);
      const replaced = await deps.indexing.saveIndex(trx, {
        versionId,
        model,
        dimensions: base.dimensions,
        itemCount: base.item_count + fresh.length,
        mean: base.mean,
        annBlobHash: ann.hash,
        // The graph covers the items of the last full index (ordinals below its count); attached ones are searched.
        graphBlobHash: base.graph_blob_hash,
        params: { ...base.params, attached: Number(base.params.attached ?? 0) + fresh.length, ...(map ? { map: grownMap(map, rows) } : {}) },
      });
      if (replaced.length > 0) await deps.blobGc.queue(replaced);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await progress(1, `Attached ${fresh.length} new media`);
  return { attached: fresh.length };
}

/** The map's params once the batch's placed media are on it: its bounds take them in. */
function grownMap(map: MapParams, rows: IndexResultRows): MapParams {
  let bounds: MapBounds = map.bounds;
  let points = map.points;
  rows.mapX.forEach((x, i) => {
    const y = rows.mapY[i];
    if (x === null || y === null || y === undefined) return;
    bounds = points === 0 ? { min_x: x, min_y: y, max_x: x, max_y: y } : { min_x: Math.min(bounds.min_x, x), min_y: Math.min(bounds.min_y, y), max_x: Math.max(bounds.max_x, x), max_y: Math.max(bounds.max_y, y) };
    points++;
  });
  return { ...map, bounds, points };
}

/** The neighbour whose level-0 cluster the new item joined, if any: they are near-duplicates. */
function level0Twin(candidates: Array<{ n: Neighbour | undefined }>, cluster: string): Neighbour | undefined {
  return candidates.find((c) => c.n!.clusters[0] === cluster)?.n;
}

function hamming(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < 16; i += 8) {
    let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x) {
      x &= x - 1;
      bits++;
    }
  }
  return bits;
}
