import type { paths } from './schema.js';

/** The JSON body of a route's success answer, as generated from the OpenAPI document. */
type Ok<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type { paths };
export type Me = Ok<'/api/v1/auth/me', 'get'>;
export type Dataset = Ok<'/api/v1/dataset/{dataset_id}', 'get'>;
export type Task = Ok<'/api/v1/tasks', 'get'>['tasks'][number];
export type TaskQuery = Query<'/api/v1/tasks', 'get'>;
/** Filters of the task list (GET /api/v1/tasks), less the paging, which the iterator does. */
export type TaskFilters = Omit<TaskQuery, 'page'>;
export type Media = Ok<'/api/v1/dataset/{dataset_id}/media', 'get'>['media'][number];
export type MediaDetail = Ok<'/api/v1/dataset/{dataset_id}/media/{media_id}', 'get'>;
export type ExplorePage = Ok<'/api/v1/explore/{dataset_id}', 'get'>;
export type Cluster = ExplorePage['clusters'][number];
export type Snapshot = Ok<'/api/v1/dataset/{dataset_id}/snapshot', 'get'>[number];
export type ExportStatus = Ok<'/api/v1/dataset/{dataset_id}/export_status', 'get'>;
export type EnrichmentModel = Ok<'/api/v1/enrichment/{dataset_id}/list_models', 'get'>[number];
export type Notification = Ok<'/api/v1/notifications', 'get'>['notifications'][number];
export type Share = Ok<'/api/v1/dataset/{dataset_id}/share', 'post'>;

/** Explore's query in the SDK's words; anything else the route takes passes through `extra`. */
export interface ExploreQuery {
  /** Clustering level 0-4 (0 = near-duplicates); sent as `threshold`. */
  level?: number;
  /** 0-based page of clusters (the route's page_number; 100 clusters a page). */
  page?: number;
  issueType?: string;
  /** A media id to explore around (similarity anchor). */
  similarTo?: string;
  anchorType?: string;
  entityType?: string;
  sortBy?: string;
  vql?: string;
  labels?: string;
  tags?: string;
  mediaType?: string;
  fileName?: string;
  caption?: string;
  previewsLimit?: number;
  viewId?: string;
  extra?: Record<string, string | number | boolean>;
}
