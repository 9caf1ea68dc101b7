import { Type } from '@sinclair/typebox';
import { MAX_INT, Nullable, StringEnum } from '../../http/schemas.js';

const Uniqueness = Type.Number({ minimum: 0, maximum: 1 });

export const ExploreParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }) });

export const ExploreQuerySchema = Type.Object({
  threshold: Type.Integer({ minimum: 0, maximum: 4, default: 0, description: 'Cluster granularity: 0 = near-duplicates (finest) … 4 = broad similarity' }),
  entity_type: StringEnum(['IMAGES', 'OBJECTS'] as const, { default: 'IMAGES' }),
  // The last page whose offset, page_number × 100 clusters, still fits int4.
  page_number: Type.Integer({ minimum: 0, maximum: Math.floor(MAX_INT / 100), default: 0, description: '0-based; 100 clusters a page' }),
  previews_limit: Type.Integer({ minimum: 1, maximum: 1000, default: 6, description: 'Members listed per cluster, best first (6 by default: a page of large clusters stays small; ask for more)' }),
  anchor_media_id: Type.Optional(Type.String({ format: 'uuid', description: 'Similarity search: a media id of the dataset, or an UPLOAD anchor id' })),
  anchor_type: Type.Optional(StringEnum(['MEDIA', 'UPLOAD'] as const, { description: 'MEDIA (default) or UPLOAD (from search-image-similarity)' })),
  sort_by: Type.Optional(StringEnum(['size', 'uniqueness', 'relevance'] as const, { description: 'Default: relevance with an anchor or a semantic query, else size' })),
  vql: Type.Optional(Type.String({ description: 'JSON array of AND-ed filters: text (fts | semantic), labels (one_of), tags (is), issues, duplicates, uniqueness, custom ({field, op: eq|ne|gt|gte|lt|lte|between|contains|exists, value}), map ({op: within, value: polygon [[x, y], …] on the embedding map})' })),
  file_name: Type.Optional(Type.String({ maxLength: 500, description: 'Substring of the file name, case-insensitive' })),
  issue_type: Type.Optional(
    Type.String({ description: 'duplicates, exact_duplicates, outliers, blur, dark, bright, grayscale, low_information, odd_aspect_ratio, odd_size, mislabels or class_outliers (docs/curation.md); with entity_type=OBJECTS, mislabels and class_outliers are the objects own flags' }),
  ),
  min_uniqueness: Type.Optional(Type.String()),
  max_uniqueness: Type.Optional(Type.String()),
  media_type: Type.Optional(Type.String({ description: 'IMAGE, VIDEO_FRAME or VIDEO (a video is listed through its frames); comma-separated' })),
  caption: Type.Optional(Type.String({ description: 'Text search; with textual_similarity_threshold it is semantic' })),
  textual_similarity_threshold: Type.Optional(Type.String()),
  labels: Type.Optional(Type.String({ description: 'Comma-separated; media with any of them' })),
  tags: Type.Optional(Type.String({ description: 'Comma-separated; media with any of them' })),
  view_id: Type.Optional(Type.String({ format: 'uuid', description: "A saved view of this dataset: its stored query replaces the parameters above except page_number and previews_limit" })),
});

export const Preview = Type.Object({
  type: Type.String({ description: 'IMAGE or VIDEO_FRAME' }),
  media_id: Type.String({ format: 'uuid' }),
  media_uri: Type.String({ description: 'Signed link to the original, valid one hour' }),
  media_thumb_uri: Nullable(Type.String()),
  file_name: Type.String(),
  caption: Nullable(Type.String()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  relevance_score: Nullable(Type.Number({ description: 'Cosine distance to the anchor or query: lower is closer' })),
  relevance_score_type: Nullable(Type.String()),
  uniqueness_score: Nullable(Uniqueness),
  issues: Type.Array(Type.String({ description: 'blur, dark, bright, grayscale, low_information, odd_aspect_ratio, outliers, duplicates; on OBJECTS pages also the object\'s own mislabels, class_outliers' })),
  duplicate_group_id: Nullable(Type.String()),
  video_id: Nullable(Type.String({ description: 'For a VIDEO_FRAME, the video it was taken from' })),
  frame_timestamp: Nullable(Type.Number()),
  tags: Type.Array(Type.String(), { description: "The media's tags" }),
  label: Nullable(Type.String({ description: "The media's label (class name); on OBJECTS pages the detected object's class" })),
  object_id: Type.Optional(Type.String({ format: 'uuid', description: 'OBJECTS pages: the detected object' })),
  score: Type.Optional(Type.Number({ description: 'OBJECTS pages: the detection score' })),
  bounding_box: Type.Optional(
    Type.Object(
      { x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() },
      { description: "OBJECTS pages: the object's box in the media's pixels (x, y = top left)" },
    ),
  ),
  suggested_label: Type.Optional(
    Nullable(Type.String({ description: "OBJECTS pages, an object flagged mislabels: the class most of its nearest objects have (POST …/label_errors with target objects)" })),
  ),
});

export const Cluster = Type.Object({
  cluster_id: Type.String({ format: 'uuid' }),
  type: Type.String({ description: 'The entity type listed: IMAGES or OBJECTS' }),
  n_images: Type.Integer(),
  n_objects: Type.Integer(),
  n_videos: Type.Integer(),
  n_media: Type.Integer({ description: 'Members matching the query, images and video frames' }),
  previews: Type.Array(Preview),
  labels: Type.Array(Type.String(), { description: 'Distinct labels of the previews shown' }),
  user_tags: Type.Array(Type.String(), { description: 'Distinct tags of the previews shown' }),
  captions: Type.Array(Type.String()),
});

export const ExploreResponse = Type.Object({
  clusters: Type.Array(Cluster),
  page_number: Type.Integer(),
  threshold: Type.Integer(),
  entity_type: Type.String(),
  total_clusters: Type.Integer(),
  clusters_per_page: Type.Integer(),
});

export const SimilarityAnchor = Type.Object({ anchor_media_id: Type.String({ format: 'uuid' }), anchor_type: Type.Literal('UPLOAD') });

export const DuplicatesResponse = Type.Object({ media_id: Type.String({ format: 'uuid' }), duplicates: Type.Array(Type.String({ format: 'uuid' })) });
