import fs from 'node:fs';
import path from 'node:path';
import type { Dataset, Loupe, MediaWalk, UploadProgress, UploadState } from '../../../sdk/src/index.js';
import { InterruptedError, UsageError } from '../exit-codes.js';
import { withInterrupt } from '../interrupt.js';
import { note } from '../output.js';
import { barsWanted, uploadBar } from '../progress.js';
import type { UploadStateFiles } from '../upload-state.js';
import { waitForDataset } from '../waiting.js';

export interface UploadResult {
  dataset: Dataset;
  /** Media files in the folder. */
  files: number;
  /** Files sent by this run (a resumed run leaves out what an earlier run sent). */
  uploaded: number;
  /** Files that are not media, left out. */
  skipped: number;
  skipped_files: MediaWalk['skipped'];
  resumed: boolean;
}

export function mediaFolder(dir: string): string {
  const folder = path.resolve(dir);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${dir} is not a folder`);
  return folder;
}

const resumeHint = (datasetId: string) => `resume with: loupe datasets resume ${datasetId}`;

/**
 * Creates a dataset from a folder (or goes on with a saved upload) through the SDK's batches. The SDK's upload state
 * is saved after the dataset is made and after each accepted batch, so an interrupted run resumes without sending a
 * file twice; the state file goes once process_files has started the DATASET_CREATION task.
 */
export async function uploadFolder(
  loupe: Loupe,
  states: UploadStateFiles,
  upload: { name: string; folder: string; state?: UploadState },
  options: { batchSize?: number; wait: boolean; json: boolean },
): Promise<UploadResult> {
  const alreadySent = upload.state?.sent.length ?? 0;
  let state = upload.state;
  let walk: MediaWalk = { files: [], skipped: [] };
  const bar = await uploadBar(barsWanted(options.json));
  const remember = (next: UploadState) => {
    if (!state) note(`dataset ${next.datasetId}: if interrupted, ${resumeHint(next.datasetId)}`);
    state = next;
    if (next.processed) states.remove(next.datasetId);
    else states.save({ name: upload.name, folder: upload.folder, state: next });
  };
  if (state) note(`resuming dataset ${state.datasetId}: ${alreadySent} files were sent before`);

  let dataset: Dataset;
  try {
    dataset = await withInterrupt('interrupted', (signal) =>
      loupe.createDataset(upload.name, upload.folder, {
        batchSize: options.batchSize,
        state: upload.state,
        signal,
        onWalk: (found) => {
          // The SDK refuses before making the dataset; the CLI names the folder.
          if (found.files.length === 0 && !upload.state) throw new Error(`No images or videos in ${upload.folder} (${found.skipped.length} other files skipped)`);
          walk = found;
        },
        onState: remember,
        onProgress: (p: UploadProgress) => bar.update(p),
      }),
    );
  } catch (err) {
    bar.stop();
    if (!state || state.processed) throw err;
    // The state file stays: a dropped connection or a Ctrl-C loses nothing the server accepted.
    if (err instanceof InterruptedError) throw new InterruptedError(`interrupted after ${state.sent.length} of ${walk.files.length} files; ${resumeHint(state.datasetId)}`);
    note(`upload stopped after ${state.sent.length} of ${walk.files.length} files; ${resumeHint(state.datasetId)}`);
    throw err;
  }
  bar.stop();
  states.remove(dataset.id);

  const result = {
    files: walk.files.length,
    uploaded: (state?.sent.length ?? 0) - alreadySent,
    skipped: walk.skipped.length,
    skipped_files: walk.skipped,
    resumed: upload.state !== undefined,
  };
  if (options.wait) dataset = await waitForDataset(loupe, dataset.id, options.json);
  return { dataset, ...result };
}
