import type { EvaluatedView } from './views.service.js';

export function presentView(v: EvaluatedView) {
  return {
    id: v.id,
    dataset_id: v.dataset_id,
    name: v.name,
    created_at: v.created_at.toISOString(),
    updated_at: v.updated_at.toISOString(),
    created_by: { user_id: v.created_by, email: v.created_by_email },
    filters: v.query,
    stats: v.counts && { n_images: v.counts.n_images, n_video_frames: v.counts.n_video_frames, n_videos: v.counts.n_videos, n_clusters: v.counts.n_clusters },
    total_results: v.counts?.n_media ?? null,
    monitoring_enabled: v.monitoring_enabled,
    alerting_enabled: v.alerting_enabled,
    notify_emails: v.notify_emails,
  };
}
