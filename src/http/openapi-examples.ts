/**
 * An example of every operation's success response, and one error example per status, for the OpenAPI document
 * (test/http/openapi-document.test.ts checks each against its schema and that no operation lacks one).
 */

const DATASET = '5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f';
const CLONE = '6c1f9d2f-3a5b-4d7c-8e8f-2b3c4d5e6f70';
const TASK = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';
const USER = '7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81';
const MEDIA = '8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92';
const OTHER_MEDIA = '9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3';
const CLUSTER = 'a05d3b6d-7e9f-4b10-8c23-6f7a8b9cadb4';
const SNAPSHOT = 'b16e4c7e-8f0a-4c21-9d34-7a8b9cadbec5';
const VIEW = 'c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6';
const NOTIFICATION = 'd3806e9a-0b2c-4e43-9f56-9cadbecfd0e7';
const EXPORT = 'e4917fab-1c3d-4f54-8a67-adbecfd0e1f8';
const BATCH = 'f5a280bc-2d4e-4a65-9b78-becfd0e1f209';
const EMAIL = 'ana@example.com';
const AT = '2026-01-15T09:30:00.000Z';
const LATER = '2026-01-15T09:31:12.000Z';
const BASE = `/api/v1/dataset/${DATASET}/media`;

const dataset = {
  id: DATASET,
  display_name: 'street-photos',
  description: '',
  status_new: 'READY',
  status: 'READY',
  progress: 100,
  n_images: 1240,
  n_videos: 3,
  n_objects: 0,
  fatal_error_msg: null,
  source_dataset_id: null,
  created_at: AT,
  created_by: EMAIL,
};

const task = {
  task_id: TASK,
  dataset_id: DATASET,
  dataset_name: 'street-photos',
  dataset_status: 'READ_ONLY',
  created_by: EMAIL,
  task_type: 'MEDIA_ADDITION',
  status: 'RUNNING',
  status_message: 'Processing 48 of 50 file(s)',
  progress_percentage: 96,
  error_message: null,
  start_time: AT,
  end_time: null,
};

const access = { user_id: USER, email: 'ben@example.com', role: 'viewer', granted_at: AT };

const snapshot = {
  snapshot_id: SNAPSHOT,
  snapshot_name: 'before relabelling',
  source_dataset_name: 'street-photos',
  created_at: AT,
  created_by: EMAIL,
  n_images: 1240,
  n_videos: 3,
  description: '',
  reason: 'manual',
  training_model_id: null,
  training_model_name: null,
  is_current: true,
  is_restoring: false,
};

const view = {
  id: VIEW,
  dataset_id: DATASET,
  name: 'blurry duplicates',
  created_at: AT,
  updated_at: AT,
  created_by: { user_id: USER, email: EMAIL },
  filters: { threshold: 0, entity_type: 'IMAGES', issue_type: 'duplicates' },
  stats: { n_images: 42, n_video_frames: 0, n_videos: 0, n_clusters: 17 },
  total_results: 17,
  monitoring_enabled: true,
  alerting_enabled: true,
  notify_emails: [],
};

const notification = {
  id: NOTIFICATION,
  user_id: USER,
  entity_type: 'saved_view',
  entity_id: VIEW,
  title: 'New results for "blurry duplicates"',
  message: '3 new results in street-photos',
  metadata: { batch_id: BATCH, is_alert: true, view_name: 'blurry duplicates', dataset_name: 'street-photos', result_count: 3 },
  dataset_id: DATASET,
  created_at: AT,
  read_at: null,
};

const model = {
  id: 'builtin-captioner',
  name: 'Built-in captioner',
  type: 'CAPTION_IMAGES',
  status: 'Active',
  vendor: 'Loupe',
  description: 'Short captions of whole images',
  dependencies: [],
};

const media = {
  media_id: MEDIA,
  dataset_id: DATASET,
  media_type: 'IMAGE',
  file_name: 'dog.jpg',
  format: 'jpeg',
  mime: 'image/jpeg',
  file_size: 183_204,
  width: 1024,
  height: 768,
  duration_seconds: null,
  parent_media_id: null,
  frame_timestamp: null,
  exif: { Make: 'Canon' },
  phash: 'c3d4e5f60718293a',
  blur: 0.12,
  brightness: 0.54,
  quality_flags: [],
  uniqueness_score: 0.81,
  is_outlier: false,
  duplicate_group_id: null,
  cluster_ids: [CLUSTER],
  tags: ['reviewed'],
  label: 'dog',
  custom_fields: { score: 0.9 },
  caption: 'a dog on a lawn',
  objects: [{ object_id: OTHER_MEDIA, label: 'dog', score: 0.97, bounding_box: { x: 120, y: 80, width: 400, height: 380 }, caption: null }],
  created_at: AT,
  media_uri: `${BASE}/${MEDIA}/original`,
  media_thumb_uri: `${BASE}/${MEDIA}/thumbnail`,
  media_preview_uri: `${BASE}/${MEDIA}/preview`,
  frames: [],
};

const preview = {
  type: 'IMAGE',
  media_id: MEDIA,
  media_uri: `${BASE}/${MEDIA}/original`,
  media_thumb_uri: `${BASE}/${MEDIA}/thumbnail`,
  file_name: 'dog.jpg',
  caption: 'a dog on a lawn',
  width: 1024,
  height: 768,
  relevance_score: null,
  relevance_score_type: null,
  uniqueness_score: 0.81,
  issues: [],
  duplicate_group_id: null,
  video_id: null,
  frame_timestamp: null,
  tags: ['reviewed'],
  label: 'dog',
};

const me = { user_id: USER, email: EMAIL };
const ok = { ok: true };
const counted = { matched: 12, changed: 10 };
const fields = [{ name: 'score', type: 'number' }];

/** The success response of each operation, by `METHOD path` as the document writes them (`METHOD path STATUS` where it has two). */
export const SUCCESS_EXAMPLES: Record<string, unknown> = {
  'GET /metrics': '# HELP loupe_tasks_total Tasks by type and status\n# TYPE loupe_tasks_total gauge\nloupe_tasks_total{task_type="REINDEX",status="COMPLETED"} 4\n',
  'GET /health': { status: 'ok' },
  'GET /ready': { status: 'ready', sweeps: { blobs: { runs: 12, failures: 0, last_error_at: null } } },
  'GET /sign-in': '<!doctype html><html lang="en">…</html>',
  'GET /datasets': '<!doctype html><html lang="en">…</html>',
  'GET /datasets/{*}': '<!doctype html><html lang="en">…</html>',
  'GET /tasks': '<!doctype html><html lang="en">…</html>',
  'GET /notifications': '<!doctype html><html lang="en">…</html>',
  'GET /': { name: 'Loupe', version: '0.1.0', docs: '/docs', openapi: '/docs/json', health: '/health' },
  'POST /api/v1/auth/session': me,
  'GET /api/v1/auth/me': me,
  'GET /api/v1/api_credentials': { ...me, api_key: 'lk_3k9XbQ2mWv', api_secret: 'ls_Qm8f2Kp0aZr7Yt1Vn4Hc6Jd9' },
  'GET /api/v1/ingestion/new_dataset': { dataset_id: DATASET },
  'GET /api/v1/ingestion/{dataset_id}/data_files': { trans_id: 1 },
  'POST /api/v1/ingestion/{dataset_id}/data_files/{trans_id}': {
    trans_id: 1,
    files: [
      { file_name: 'dog.jpg', media_kind: 'IMAGE', format: 'jpeg', size: 183_204 },
      { file_name: 'street.mp4', media_kind: 'VIDEO', format: 'mp4', size: 4_812_330 },
    ],
  },
  'POST /api/v1/ingestion/{dataset_id}/process_files/{trans_id}': { dataset_id: DATASET, task_id: TASK },
  'GET /api/v1/dataset/{dataset_id}': dataset,
  'PATCH /api/v1/dataset/{dataset_id}': { ...dataset, description: 'Photos from the spring shoot' },
  'GET /api/v1/datasets': [dataset],
  'POST /api/v1/dataset/{dataset_id}/share': access,
  'PUT /api/v1/manage/{dataset_id}/invite': access,
  'GET /api/v1/manage/{dataset_id}/share': { users: [{ user_id: USER, email: EMAIL, role: 'owner', granted_at: null }, access] },
  'GET /api/v1/tasks': { tasks: [task], total: 1, page: 1, page_size: 20 },
  'GET /api/v1/tasks/filters': { dataset_names: ['street-photos'], dataset_ids: [DATASET], task_types: ['DATASET_CREATION', 'MEDIA_ADDITION'], created_by: [EMAIL] },
  'GET /api/v1/tasks/{task_id}': task,
  'POST /api/v1/tasks/{task_id}/abort': { ...task, task_type: 'DATASET_CREATION', status: 'ABORTED', status_message: 'Aborted', error_message: null, end_time: LATER },
  'POST /api/v1/tasks/{task_id}/retry': { ...task, task_type: 'DATASET_CREATION', status: 'INITIALIZING', status_message: 'Queued', progress_percentage: 0 },
  'GET /api/v1/dataset/{dataset_id}/media': { media: [media], total: 1243 },
  'GET /api/v1/dataset/{dataset_id}/issues': {
    n_media: 1243,
    median_area: 786432,
    issues: { blur: 41, dark: 12, bright: 3, outliers: 62, duplicates: 118, exact_duplicates: 9, odd_aspect_ratio: 4, odd_size: 2, grayscale: 7, low_information: 1, mislabels: 5, class_outliers: 3, corrupt: 1 },
    object_issues: { mislabels: 14, class_outliers: 6 },
    corrupt_files: [{ file_name: 'IMG_0042.jpg', reason: 'VipsJpeg: premature end of JPEG file', uploaded_at: AT }],
    page_number: 0,
    files_per_page: 100,
  },
  'GET /api/v1/dataset/{dataset_id}/map': {
    bounds: { min_x: 0, min_y: 0, max_x: 1, max_y: 0.87 },
    total: 1243,
    sample: 1243,
    seconds: { umap: 0.41, placement: 0 },
    threshold: 2,
    clusters: ['c4a1f0e2-7b3d-5e9f-8a21-0d6c5b4e3f21', '5d2e8f10-3c4b-5a6d-9e7f-1a2b3c4d5e6f'],
    points: { media_id: [MEDIA, '0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c'], x: [0.4123, 0.4131], y: [0.2871, 0.6602], cluster: [0, 1] },
    next_cursor: '0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c',
  },
  'POST /api/v1/dataset/{dataset_id}/map/selection': {
    count: 2,
    media_ids: [MEDIA, '0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c'],
    next_cursor: null,
    vql: '[{"map":{"op":"within","value":[[0.4,0.28],[0.42,0.28],[0.42,0.67],[0.4,0.67]]}}]',
  },
  'GET /api/v1/dataset/{dataset_id}/media/{media_id}': media,
  'GET /api/v1/dataset/{dataset_id}/snapshot': [snapshot],
  'POST /api/v1/dataset/{dataset_id}/snapshot': snapshot,
  'PATCH /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}': { ...snapshot, description: 'Labels as reviewed on Monday' },
  'GET /api/v1/dataset/{dataset_id}/export_context_async': { id: EXPORT },
  'POST /api/v1/dataset/{dataset_id}/export_entities_async': { id: EXPORT },
  'GET /api/v1/dataset/{dataset_id}/export_status': {
    status: 'COMPLETED',
    download_uri: `http://localhost:8080/api/v1/exports/${EXPORT}/download?expires=1768470000&signature=9b2f`,
    result_message: null,
    progress: 100,
  },
  'GET /api/v1/enrichment/{dataset_id}/list_models': [model],
  'GET /api/v1/enrichment/{dataset_id}/context': { enrichment_context_id: DATASET, status: 'NEW', dataset_enrichment_models: { enrichment_models: {} } },
  'POST /api/v1/dataset/{dataset_id}/enrich_dataset': { dataset_id: CLONE },
  'POST /api/v1/dataset/{dataset_id}/views': view,
  'GET /api/v1/dataset/{dataset_id}/views': { views: [view] },
  'GET /api/v1/dataset/{dataset_id}/views/{view_id}': view,
  'PATCH /api/v1/dataset/{dataset_id}/views/{view_id}': { ...view, name: 'blurry duplicates (kitchen)' },
  'DELETE /api/v1/dataset/{dataset_id}/views/{view_id}': ok,
  'POST /api/v1/dataset/{dataset_id}/media/tags': counted,
  'POST /api/v1/dataset/{dataset_id}/media/tags/remove': counted,
  'PUT /api/v1/dataset/{dataset_id}/media/label': counted,
  'PUT /api/v1/dataset/{dataset_id}/objects/label': counted,
  'GET /api/v1/dataset/{dataset_id}/tags': { tags: [{ tag: 'reviewed', count: 12 }] },
  'GET /api/v1/dataset/{dataset_id}/labels': { labels: [{ label: 'dog', count: 31 }], unlabelled: 1209 },
  'POST /api/v1/dataset/{dataset_id}/labels/propagate': { clusters: 9, media: 54, ambiguous: 2 },
  'POST /api/v1/dataset/{dataset_id}/labels/propagate 202': { task_id: TASK },
  'POST /api/v1/dataset/{dataset_id}/dedup': {
    scope: 'exact',
    level: null,
    keep: 'largest_resolution',
    field: null,
    order: null,
    totals: { groups: 1, media_in_groups: 2, media_kept: 1, media_removed: 1 },
    page_number: 0,
    groups_per_page: 100,
    groups: [
      {
        group_id: 'pixels:9b2f6c1d0e8a4b7c5d3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c',
        n_members: 2,
        keeper_media_id: MEDIA,
        members: [
          { media_id: MEDIA, file_name: 'kitchen-042.jpg', file_size: 482113, value: 12000000, keep: true },
          { media_id: OTHER_MEDIA, file_name: 'kitchen-042 (copy).png', file_size: 9120554, value: 12000000, keep: false },
        ],
      },
    ],
  },
  'POST /api/v1/dataset/{dataset_id}/dedup 202': { task_id: TASK },
  'POST /api/v1/dataset/{dataset_id}/select 202': { task_id: TASK },
  'POST /api/v1/dataset/{dataset_id}/custom_metadata': { task_id: TASK },
  'POST /api/v1/dataset/{dataset_id}/leakage': { task_id: TASK },
  'GET /api/v1/dataset/{dataset_id}/leakage/{task_id}': {
    task_id: TASK,
    dataset_id: DATASET,
    other_dataset_id: null,
    split_field: 'split',
    threshold: 0.7,
    tag: 'leak',
    comparisons: [
      {
        comparison: 0,
        side_a: { name: 'train', dataset_id: DATASET, n_media: 1000, n_leaked: 46, percent_leaked: 4.6, n_tagged: 46 },
        side_b: { name: 'val', dataset_id: DATASET, n_media: 240, n_leaked: 48, percent_leaked: 20, n_tagged: 48 },
        n_pairs: 51,
      },
    ],
    created_at: LATER,
  },
  'GET /api/v1/dataset/{dataset_id}/leakage/{task_id}/pairs': {
    pairs: [
      {
        comparison: 0,
        similarity: 0.97,
        media_a: { media_id: MEDIA, file_name: 'IMG_0042.jpg', dataset_id: DATASET, media_thumb_uri: `http://localhost:8080${BASE}/${MEDIA}/thumbnail?expires=1768470000&signature=4c1d` },
        media_b: { media_id: OTHER_MEDIA, file_name: 'IMG_0042-crop.jpg', dataset_id: DATASET, media_thumb_uri: `http://localhost:8080${BASE}/${OTHER_MEDIA}/thumbnail?expires=1768470000&signature=7a2e` },
      },
    ],
    page_number: 0,
    page_size: 100,
    total: 51,
  },
  'POST /api/v1/dataset/{dataset_id}/label_errors': { task_id: TASK },
  'GET /api/v1/dataset/{dataset_id}/custom_metadata/schema': { fields },
  'GET /api/v1/dataset/{dataset_id}/custom_metadata/imports/{task_id}': {
    task_id: TASK,
    status: 'COMPLETED',
    status_message: 'Imported 1240 row(s)',
    error_message: null,
    progress_percentage: 100,
    file_name: 'scores.csv',
    key: 'file_name',
    fields,
    report: { rows: 1241, matched: 1240, unmatched: 1, rejected: 0, rejections: [], unmatched_keys: ['missing.jpg'] },
  },
  'GET /api/v1/notifications': { notifications: [notification], total: 1, has_more: false },
  'GET /api/v1/notifications/unread-count': 1,
  'POST /api/v1/notifications/{notification_id}/read': ok,
  'POST /api/v1/notifications/read-all': { ok: true, count: 3 },
  'GET /api/v1/notifications/stream': `event: notification\nid: 42\ndata: ${JSON.stringify(notification)}\n\nevent: ping\ndata: {"time":"${LATER}"}\n\n`,
  'GET /api/v1/explore/{dataset_id}': {
    clusters: [
      { cluster_id: CLUSTER, type: 'IMAGES', n_images: 2, n_objects: 0, n_videos: 0, n_media: 2, previews: [preview], labels: ['dog'], user_tags: ['reviewed'], captions: ['a dog on a lawn'] },
    ],
    page_number: 0,
    threshold: 0,
    entity_type: 'IMAGES',
    total_clusters: 1,
    clusters_per_page: 100,
  },
  'POST /api/v1/dataset/{dataset_id}/search-image-similarity': { anchor_media_id: MEDIA, anchor_type: 'UPLOAD' },
  'GET /api/v1/dataset/{dataset_id}/media/{media_id}/duplicates': { media_id: MEDIA, duplicates: [OTHER_MEDIA] },
};

/** One `{"detail": ...}` per error status, each a message the service really sends. */
export const ERROR_EXAMPLES: Record<string, { detail: string }> = {
  400: { detail: 'Exactly one media source must be provided: files[], s3_uri, or archive' },
  401: { detail: 'Not authenticated' },
  403: { detail: 'You do not have permission to edit this dataset' },
  404: { detail: 'Dataset not found' },
  409: { detail: "Operation 'add_media' is blocked while MEDIA_ADDITION task is running" },
  410: { detail: 'The export archive has expired or was removed' },
  413: { detail: 'Too many files in one request: the limit is 500; send them in batches' },
  416: { detail: 'Requested range not satisfiable' },
  422: { detail: "params/dataset_id must match format \"uuid\"" },
  429: { detail: 'Too many failed authentication attempts; retry in 60 s' },
  500: { detail: 'Internal server error' },
  503: { detail: 'Database unreachable' },
};

type Operation = { responses: Record<string, { content?: Record<string, { example?: unknown; schema?: { format?: string } }> }> };

/** The @fastify/swagger `transformObject`: puts the examples on the document's responses. */
export function addExamples<D extends { openapiObject: object } | { swaggerObject: object }>(document: D) {
  const openapiObject = ('openapiObject' in document ? document.openapiObject : document.swaggerObject) as { paths?: Record<string, Record<string, Operation>> };
  const paths = openapiObject.paths ?? {};
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) {
          if (media.schema?.format === 'binary') continue;
          const name = `${method.toUpperCase()} ${path}`;
          const example = status.startsWith('2') ? (SUCCESS_EXAMPLES[`${name} ${status}`] ?? SUCCESS_EXAMPLES[name]) : ERROR_EXAMPLES[status];
          if (example !== undefined) media.example = example;
        }
      }
    }
  }
  return openapiObject;
}
