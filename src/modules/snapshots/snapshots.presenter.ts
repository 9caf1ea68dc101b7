import type { SnapshotView } from './snapshots.repo.js';

export function presentSnapshot(s: SnapshotView) {
  return {
    snapshot_id: s.id,
    snapshot_name: s.name,
    source_dataset_name: s.source_dataset_name,
    created_at: s.created_at.toISOString(),
    created_by: s.created_by_email,
    n_images: s.n_images,
    n_videos: s.n_videos,
    description: s.description,
    reason: s.reason,
    training_model_id: s.training_model_id,
    training_model_name: s.training_model_name,
    is_current: s.is_current,
    is_restoring: s.is_restoring,
  };
}
