import { errors } from '../../core/errors.js';
import { type MapPolygon, mapPolygon } from '../../core/vql.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { MapBounds } from '../indexing/embedding-map.js';
import { type MapRect, rectOf, rectPolygon } from './map-rows.js';
import type { MapPointRows, MapRepo } from './map.repo.js';

export interface MapPage {
  bounds: MapBounds;
  total: number;
  sample: number;
  seconds: { umap: number; placement: number };
  threshold: number;
  clusters: string[];
  points: { media_id: string[]; x: number[]; y: number[]; cluster: number[] };
  next_cursor: string | null;
}

export interface MapSelection {
  count: number;
  media_ids: string[];
  next_cursor: string | null;
  polygon: MapPolygon;
}

export interface MapPageQuery {
  threshold: number;
  limit: number;
  cursor?: string;
  min_x?: number;
  min_y?: number;
  max_x?: number;
  max_y?: number;
}

export interface SelectionBody {
  polygon?: number[][];
  rect?: MapRect;
  limit: number;
  cursor?: string;
}

/** The embedding map of a dataset's current version (made at index time, docs/curation.md): pages of points and selections. */
export class MapService {
  constructor(
    private readonly repo: MapRepo,
    private readonly datasets: Pick<DatasetsService, 'authorize'>,
  ) {}

  async page(principal: Principal, datasetId: string, q: MapPageQuery): Promise<MapPage> {
    const { versionId, map } = await this.mapOf(principal, datasetId);
    const rect = queryRect(q);
    const rows = await this.repo.points(versionId, q.threshold, rect, q.cursor ?? null, q.limit);
    return { bounds: map.bounds, total: map.points, sample: map.sample, seconds: map.seconds, threshold: q.threshold, ...compact(rows), next_cursor: rows.media_id.length === q.limit ? rows.media_id.at(-1)! : null };
  }

  async selection(principal: Principal, datasetId: string, body: SelectionBody): Promise<MapSelection> {
    const { versionId } = await this.mapOf(principal, datasetId);
    if ((body.polygon === undefined) === (body.rect === undefined)) throw errors.validation('Give exactly one of polygon and rect');
    const polygon = body.polygon ? mapPolygon(body.polygon, 'polygon') : rectPolygon(checkedRect(body.rect!, 'rect'));
    const rect = rectOf(polygon);
    const [count, ids] = await Promise.all([this.repo.count(versionId, rect, polygon), this.repo.inside(versionId, rect, polygon, body.cursor ?? null, body.limit)]);
    return { count, media_ids: ids, next_cursor: ids.length === body.limit ? ids.at(-1)! : null, polygon };
  }

  private async mapOf(principal: Principal, datasetId: string) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const map = dataset.head_version_id ? await this.repo.mapOf(dataset.head_version_id) : undefined;
    if (!dataset.head_version_id || !map) throw errors.noEmbeddingMap(datasetId);
    return { versionId: dataset.head_version_id, map };
  }
}

/** The page's rectangle: all four bounds or none. */
function queryRect(q: MapPageQuery): MapRect | null {
  const given = [q.min_x, q.min_y, q.max_x, q.max_y].filter((v) => v !== undefined).length;
  if (given === 0) return null;
  if (given !== 4) throw errors.validation('A rectangle needs all four of min_x, min_y, max_x and max_y');
  return checkedRect({ min_x: q.min_x!, min_y: q.min_y!, max_x: q.max_x!, max_y: q.max_y! }, 'rectangle');
}

function checkedRect(r: MapRect, name: string): MapRect {
  if (r.min_x > r.max_x || r.min_y > r.max_y) throw errors.validation(`The ${name}'s min_x and min_y must not be greater than its max_x and max_y`);
  return r;
}

/** Points as columns, each cluster id given once and referred to by its position in `clusters`. */
function compact(rows: MapPointRows): Pick<MapPage, 'clusters' | 'points'> {
  const clusters: string[] = [];
  const index = new Map<string, number>();
  const cluster = rows.cluster.map((id) => {
    if (id === null) return -1;
    let i = index.get(id);
    if (i === undefined) {
      i = clusters.push(id) - 1;
      index.set(id, i);
    }
    return i;
  });
  return { clusters, points: { media_id: rows.media_id, x: rows.x, y: rows.y, cluster } };
}
