import type { Dataset, Task } from '../../sdk/src/index.js';
import { fields, table } from './output.js';

/** Human views of the SDK's objects: compact, ids in full. */
export function datasetFields(d: Dataset, more: Array<[string, unknown]> = []): string {
  return fields([
    ['id', d.id],
    ['name', d.display_name],
    ['status', d.status_new],
    ['images', d.n_images],
    ['videos', d.n_videos],
    ['progress', `${d.progress}%`],
    ...(d.fatal_error_msg ? ([['error', d.fatal_error_msg]] as Array<[string, unknown]>) : []),
    ...(d.source_dataset_id ? ([['source', d.source_dataset_id]] as Array<[string, unknown]>) : []),
    ['owner', d.created_by],
    ['created', d.created_at],
    ...more,
  ]);
}

export function datasetTable(datasets: Dataset[]): string {
  if (datasets.length === 0) return '(no datasets)';
  return table(
    ['ID', 'STATUS', 'IMAGES', 'VIDEOS', 'NAME'],
    datasets.map((d) => [d.id, d.status_new, d.n_images, d.n_videos, d.display_name]),
  );
}

export function taskTable(tasks: Task[]): string {
  if (tasks.length === 0) return '(no tasks)';
  return table(
    ['TASK_ID', 'TYPE', 'STATUS', 'PROGRESS', 'DATASET_ID', 'STARTED', 'MESSAGE'],
    tasks.map((t) => [
      t.task_id,
      t.task_type,
      t.status,
      t.progress_percentage === null ? null : `${t.progress_percentage}%`,
      t.dataset_id,
      t.start_time,
      t.error_message ?? t.status_message,
    ]),
  );
}

export function taskLine(t: Task): string {
  const progress = t.progress_percentage === null ? '' : ` ${t.progress_percentage}%`;
  const message = t.error_message ?? t.status_message;
  return `${t.task_id}  ${t.task_type}  ${t.status}${progress}${message ? `  ${message}` : ''}`;
}
