// What Explore's queries take and give back: shared by the repo, the summary page, the service and the presenter.
import type { ExploreFilters } from '../../core/vql.js';

export type ExploreSort = 'size' | 'uniqueness' | 'relevance';

/** Media picked and scored outside SQL (by an image anchor or a semantic text query), lower score = closer. */
export interface Candidates {
  mediaIds: string[];
  scores: number[];
}

export interface ExplorePageQuery {
  versionId: string;
  level: number;
  page: number;
  previewsLimit: number;
  filters: ExploreFilters;
  candidates: Candidates | null;
  sort: ExploreSort;
}

export interface ExploreRow {
  cluster_id: string;
  cluster_size: number;
  n_images: number;
  n_videos: number;
  media_id: string;
  media_type: 'IMAGE' | 'VIDEO_FRAME';
  file_name: string;
  width: number | null;
  height: number | null;
  thumb_hash: string | null;
  parent_media_id: string | null;
  frame_timestamp: number | null;
  uniqueness_score: number | null;
  is_outlier: boolean;
  duplicate_group: string | null;
  quality_flags: string[];
  /** Its issues relative to the version (exact_duplicates, odd_size), stored with it. */
  version_issues: string[];
  tags: string[];
  label: string | null;
  relevance: number | null;
  caption: string | null;
  /** Labels of the objects detected in the media. */
  object_labels: string[];
  n_objects: number;
  /** Objects detected in the cluster's matching media (an OBJECTS page: the cluster's objects). */
  cluster_objects: number;
}

/** One detected object of an OBJECTS page, with the media it was found in. */
export interface ObjectRow extends ExploreRow {
  object_id: string;
  label: string;
  score: number;
  box: { x: number; y: number; width: number; height: number };
  object_caption: string | null;
  /** The object's label errors (label-errors.repo.ts objectScores): the class its neighbours suggest, and its flags. */
  suggested_label: string | null;
  is_mislabel: boolean;
  is_class_outlier: boolean;
}

/** What a query matches: media (images and video frames), by kind, and the clusters they fall in. */
export interface MatchCounts {
  n_media: number;
  n_images: number;
  n_video_frames: number;
  n_videos: number;
  n_clusters: number;
}
