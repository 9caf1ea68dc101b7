import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import type { CropBox, MediaEmbedding } from '../../adapters/media/image.js';
import { sniffFile } from '../../adapters/media/sniff.js';
import type { TextEmbedder } from '../../adapters/models/text-embedder.js';
import { cosine } from '../../adapters/models/text-embedder.js';
import { vectorToBytes } from '../../adapters/vectors/vector-bytes.js';
import { errors } from '../../core/errors.js';
import { fieldFilterProblem } from '../../core/field-filters.js';
import { type ExploreFilters, type ExploreQuery, parseExploreFilters } from '../../core/vql.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import { centreOne } from '../indexing/compute-index.js';
import type { ExploreRepo } from './explore.repo.js';
import type { Candidates, ExploreRow, ExploreSort, MatchCounts, ObjectRow } from './explore-rows.js';
import type { VectorIndexCache } from './vector-index-cache.js';

/** Image similarity returns this many nearest media at most. */
export const SIMILARITY_LIMIT = 1000;
/** Semantic text ranking reads at most this many media texts per query (it runs in process). */
export const SEMANTIC_SCAN_LIMIT = 200_000;
/** Cosine similarity a media text must reach for a semantic match when the query gives no threshold. */
export const DEFAULT_SEMANTIC_THRESHOLD = 0.6;

export interface ImageEmbedding {
  embed(filePath: string, format: string, crop?: CropBox, signal?: AbortSignal): Promise<MediaEmbedding>;
}

/** What Explore lists, without the paging: a saved view stores exactly this. */
export interface ExploreSelection extends ExploreQuery {
  threshold: number;
  entity_type: 'IMAGES' | 'OBJECTS';
  anchor_media_id?: string;
  anchor_type?: 'MEDIA' | 'UPLOAD';
  sort_by?: ExploreSort;
}

export interface ExploreRequest extends ExploreSelection {
  page_number: number;
  previews_limit: number;
}

export interface ExploreResult {
  rows: Array<ExploreRow | ObjectRow>;
  totalClusters: number;
  relevanceType: 'cosine_distance' | 'semantic_distance' | null;
}

export class ExploreService {
  constructor(
    private readonly repo: ExploreRepo,
    private readonly datasets: DatasetsService,
    private readonly indexes: VectorIndexCache,
    private readonly images: ImageEmbedding,
    private readonly text: () => Promise<TextEmbedder>,
    private readonly blobs: BlobStore,
  ) {}

  async explore(principal: Principal, datasetId: string, query: ExploreRequest): Promise<ExploreResult> {
    const filters = parseExploreFilters(query);
    if (query.anchor_type && !query.anchor_media_id) throw errors.validation('anchor_type needs anchor_media_id');
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const versionId = dataset.head_version_id;
    if (!versionId) throw errors.notIndexed(datasetId);
    await this.checkFieldFilters(versionId, filters);
    const { candidates, relevanceType } = await this.candidates(datasetId, versionId, query, filters);
    if (query.entity_type === 'OBJECTS') {
      const objects = await this.repo.objectPage({ versionId, level: query.threshold, page: query.page_number, previewsLimit: query.previews_limit, filters, candidates });
      return { ...objects, relevanceType };
    }
    const sort = query.sort_by ?? (candidates ? 'relevance' : 'size');
    const page = await this.repo.page({ versionId, level: query.threshold, page: query.page_number, previewsLimit: query.previews_limit, filters, candidates, sort });
    return { ...page, relevanceType };
  }

  /** A condition on a field the version does not have, or with a value of another type, is a 422 naming the field. */
  private async checkFieldFilters(versionId: string, filters: ExploreFilters): Promise<void> {
    if (filters.fields.length === 0) return;
    const types = await this.repo.fieldTypes(versionId);
    for (const field of filters.fields) {
      const problem = fieldFilterProblem(field, types);
      if (problem) throw errors.validation(problem);
    }
  }

  /**
   * What `query` matches on a version, counted (no access check: callers have done it, or are the worker);
   * `within` keeps only those media, e.g. a batch's new media for an alert.
   */
  async count(datasetId: string, versionId: string, query: ExploreSelection, within?: string[]): Promise<MatchCounts> {
    const filters = parseExploreFilters(query);
    if (query.anchor_type && !query.anchor_media_id) throw errors.validation('anchor_type needs anchor_media_id');
    const none = { n_media: 0, n_images: 0, n_video_frames: 0, n_videos: 0, n_clusters: 0 };
    if (within?.length === 0) return none;
    let { candidates } = await this.candidates(datasetId, versionId, query, filters);
    if (within) candidates = candidates ? intersect(candidates, { mediaIds: within, scores: [] }) : { mediaIds: within, scores: within.map(() => 0) };
    if (candidates?.mediaIds.length === 0) return none;
    const counted = { versionId, level: query.threshold, filters, candidates };
    return query.entity_type === 'OBJECTS' ? this.repo.countObjects(counted) : this.repo.count(counted);
  }

  /** Media picked outside SQL: an image anchor's nearest neighbours and semantic text matches, intersected. */
  private async candidates(datasetId: string, versionId: string, query: ExploreSelection, filters: ExploreFilters) {
    let candidates: Candidates | null = null;
    let relevanceType: ExploreResult['relevanceType'] = null;
    if (query.anchor_media_id) {
      candidates = await this.similar(datasetId, versionId, query.anchor_media_id, query.anchor_type ?? 'MEDIA');
      relevanceType = 'cosine_distance';
    }
    const semantic = filters.text.filter((t) => t.op === 'semantic');
    if (semantic.length > 0) {
      const ranked = await this.semantic(versionId, filters, semantic);
      candidates = candidates ? intersect(candidates, ranked) : ranked;
      relevanceType ??= 'semantic_distance';
    }
    return { candidates, relevanceType };
  }

  /** The media ids in the same duplicate group as `mediaId` (itself excluded). */
  async duplicates(principal: Principal, datasetId: string, mediaId: string): Promise<string[]> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    if (!dataset.head_version_id) throw errors.notIndexed(datasetId);
    const ids = await this.repo.duplicates(dataset.head_version_id, mediaId);
    if (!ids) throw errors.mediaNotFound();
    return ids;
  }

  /** Embeds an uploaded image (or a box of it) once and keeps it a day as an anchor for Explore. */
  async uploadAnchor(principal: Principal, datasetId: string, file: { path: string; fileName: string }, crop: CropBox | undefined): Promise<string> {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    if (!dataset.head_version_id) throw errors.notIndexed(datasetId);
    const sniffed = await sniffFile(file.path);
    if (sniffed.kind !== 'image') throw errors.unsupportedFormat(file.fileName);
    const index = await this.repo.versionIndex(dataset.head_version_id);
    if (!index) throw errors.notIndexed(datasetId);
    const embedding = await this.images.embed(file.path, sniffed.format, crop).catch((err: unknown) => {
      if (err instanceof Error && err.name === 'ImageDecodeError') throw errors.validation(`Cannot use ${file.fileName} as an anchor: ${err.message}`);
      throw err;
    });
    if (embedding.model !== index.model) throw errors.anchorModelMismatch();
    return this.repo.insertAnchor({ dataset_id: datasetId, model: embedding.model, vector: vectorToBytes(embedding.vector), file_name: file.fileName, created_by: principal.userId });
  }

  private async similar(datasetId: string, versionId: string, anchorId: string, type: 'MEDIA' | 'UPLOAD'): Promise<Candidates> {
    const index = await this.repo.versionIndex(versionId);
    if (!index || !index.ann_blob_hash) throw errors.notIndexed(datasetId);
    let vector: Float32Array;
    if (type === 'UPLOAD') {
      const anchor = await this.repo.anchor(datasetId, anchorId);
      if (!anchor) throw errors.anchorNotFound(anchorId);
      if (anchor.model !== index.model) throw errors.anchorModelMismatch();
      vector = anchor.vector;
    } else {
      const media = await this.repo.mediaVector(versionId, anchorId, index.model);
      if (!media) throw errors.anchorNotFound(anchorId);
      if (!media.vector) throw errors.anchorNotEmbedded(anchorId);
      vector = media.vector;
    }
    const vectors = await this.indexes.get(index.ann_blob_hash, index.dimensions, this.blobs);
    const matches = vectors.search(centreOne(vector, index.mean), SIMILARITY_LIMIT);
    const ids = await this.repo.mediaIdsAt(versionId, matches.ordinals);
    const found: Candidates = { mediaIds: [], scores: [] };
    matches.ordinals.forEach((ordinal, i) => {
      const id = ids.get(ordinal);
      if (id) {
        found.mediaIds.push(id);
        found.scores.push(Math.max(0, matches.distances[i]!));
      }
    });
    return found;
  }

  /** Ranks media texts by word-vector similarity to each semantic query (all must match); score = 1 − similarity. */
  private async semantic(versionId: string, filters: ExploreFilters, queries: ExploreFilters['text']): Promise<Candidates> {
    const embedder = await this.text();
    const wanted = queries.map((q) => ({ vector: embedder.embed(q.value), threshold: q.threshold ?? DEFAULT_SEMANTIC_THRESHOLD }));
    const found: Candidates = { mediaIds: [], scores: [] };
    if (wanted.some((w) => w.vector === null)) return found;
    for (const row of await this.repo.texts(versionId, filters, SEMANTIC_SCAN_LIMIT)) {
      const v = embedder.embed(row.text);
      if (!v) continue;
      const similarities = wanted.map((w) => cosine(v, w.vector!));
      if (similarities.every((s, i) => s >= wanted[i]!.threshold)) {
        found.mediaIds.push(row.media_id);
        found.scores.push(1 - Math.min(...similarities));
      }
    }
    return found;
  }
}

/** Media in both lists, keeping the first list's scores. */
function intersect(a: Candidates, b: Candidates): Candidates {
  const keep = new Set(b.mediaIds);
  const out: Candidates = { mediaIds: [], scores: [] };
  a.mediaIds.forEach((id, i) => {
    if (keep.has(id)) {
      out.mediaIds.push(id);
      out.scores.push(a.scores[i]!);
    }
  });
  return out;
}
