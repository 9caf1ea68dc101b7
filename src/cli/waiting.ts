import type { Dataset, Loupe, Task } from '../../sdk/src/index.js';
import { withInterrupt } from './interrupt.js';
import { barsWanted, statusBar } from './progress.js';

/** --wait on a dataset: a bar of its progress and status until it is in `until` (READY unless told). */
export async function waitForDataset(loupe: Loupe, datasetId: string, json: boolean, until: string[] = ['READY']): Promise<Dataset> {
  const bar = await statusBar(barsWanted(json), 'dataset');
  try {
    return await withInterrupt(`Stopped waiting; dataset ${datasetId} goes on on the server: see \`loupe datasets show ${datasetId}\``, (signal) =>
      loupe.waitForDataset(datasetId, {
        until,
        failOn: ['ERROR'],
        signal,
        onProgress: (d: Dataset) => bar.update(d.progress ?? null, d.status_new),
      }),
    );
  } finally {
    bar.stop();
  }
}

/** --wait on a task: a bar of its progress and status message until COMPLETED (FAILED or ABORTED throw). */
export async function waitForTask(loupe: Loupe, taskId: string, json: boolean): Promise<Task> {
  const bar = await statusBar(barsWanted(json), 'task');
  try {
    return await withInterrupt(`Stopped waiting; task ${taskId} goes on on the server: see \`loupe tasks watch ${taskId}\``, (signal) =>
      loupe.waitForTask(taskId, {
        signal,
        onProgress: (t: Task) => bar.update(t.progress_percentage ?? null, `${t.status}${t.status_message ? ` ${t.status_message}` : ''}`),
      }),
    );
  } finally {
    bar.stop();
  }
}
