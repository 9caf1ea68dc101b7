import { taskDatasetStatus } from '../../core/dataset-status.js';
import type { TaskView } from './task-list.repo.js';

export function presentTask(t: TaskView) {
  return {
    task_id: t.id,
    dataset_id: t.dataset_id,
    dataset_name: t.dataset_name,
    dataset_status: taskDatasetStatus(t.dataset_status),
    created_by: t.created_by,
    task_type: t.task_type,
    status: t.status,
    status_message: t.status_message,
    progress_percentage: t.progress_percentage,
    error_message: t.error_message,
    start_time: t.start_time,
    end_time: t.end_time,
  };
}
