import type { DatasetStatus } from '../../core/dataset-status.js';
import { legacyStatus } from '../../core/dataset-status.js';

interface DatasetLike {
  id: string;
  display_name: string;
  description: string;
  status_new: DatasetStatus;
  progress: number;
  n_images: number;
  n_videos: number;
  n_objects: number;
  fatal_error_msg: string | null;
  source_dataset_id: string | null;
  created_at: Date;
  owner_email: string;
}

export function presentDataset(d: DatasetLike) {
  return {
    id: d.id,
    display_name: d.display_name,
    description: d.description,
    status_new: d.status_new,
    status: legacyStatus(d.status_new),
    progress: d.progress,
    n_images: d.n_images,
    n_videos: d.n_videos,
    n_objects: d.n_objects,
    fatal_error_msg: d.fatal_error_msg,
    source_dataset_id: d.source_dataset_id,
    created_at: d.created_at.toISOString(),
    created_by: d.owner_email,
  };
}
