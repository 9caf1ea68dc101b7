import path from 'node:path';
import type { Command } from 'commander';
import type { Dataset, Loupe } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { UsageError } from '../exit-codes.js';
import { withInterrupt } from '../interrupt.js';
import { fields, print } from '../output.js';
import { withJson } from '../options.js';
import { datasetFields } from '../present.js';
import { barsWanted, uploadBar } from '../progress.js';
import { waitForDataset, waitForTask } from '../waiting.js';
import { mediaFolder } from './dataset-upload.js';

interface AddMediaOptions {
  archive?: string;
  s3?: string;
  reindex?: boolean;
  wait?: boolean;
  json?: boolean;
}


export function addMediaCommands(program: Command): void {
  withJson(
    program
      .command('add-media')
      .description('add images or videos to an indexed dataset: a folder (recursive), an archive or an S3 folder/manifest; one MEDIA_ADDITION task (a folder: one per 500 files, in turn)')
      .argument('<dataset_id>')
      .argument('[dir]', 'a folder to upload')
      .option('--archive <file>', 'a .zip, .tar or .tar.gz archive to upload instead')
      .option('--s3 <uri>', 'an s3:// folder or manifest (.csv, .parquet, .txt) the server reads instead')
      .option('--reindex', 'reindex (re-cluster) afterwards: the dataset ends READY instead of PARTIAL INDEX')
      .option('--wait', 'wait for the task to end, showing its progress'),
    '{"task_id","dataset"}',
  ).action(async (id: string, dir: string | undefined, opts: AddMediaOptions) => {
    const sources = [dir, opts.archive, opts.s3].filter((s) => s !== undefined).length;
    if (sources !== 1) throw new UsageError('give exactly one source: a folder, --archive FILE or --s3 URI');
    const loupe = connect();
    const json = Boolean(opts.json);
    const options = { reindex: Boolean(opts.reindex) };
    const bar = await uploadBar(barsWanted(json));
    let started: { taskId: string | null };
    try {
      started = await withInterrupt('interrupted: nothing was added (an upload is one request)', (signal) => {
        if (opts.s3) return loupe.addMediaFromS3(id, opts.s3, { ...options, signal });
        if (opts.archive) return loupe.addMediaFromArchive(id, path.resolve(opts.archive), { ...options, signal, onProgress: (p) => bar.update(p) });
        return loupe.addMedia(id, mediaFolder(dir!), { ...options, signal, onProgress: (p) => bar.update(p) });
      });
    } finally {
      bar.stop();
    }
    const dataset = opts.wait ? await settle(loupe, id, started.taskId, json, options.reindex) : await loupe.dataset(id);
    print({ task_id: started.taskId, dataset }, json, () => [fields([['task', started.taskId ?? '-']]), datasetFields(dataset)].join('\n'));
  });
}

/** add-media ends in PARTIAL INDEX, or READY when it reindexes. */
async function settle(loupe: Loupe, datasetId: string, taskId: string | null, json: boolean, reindex: boolean): Promise<Dataset> {
  if (taskId) await waitForTask(loupe, taskId, json);
  return waitForDataset(loupe, datasetId, json, reindex ? ['READY'] : ['READY', 'PARTIAL INDEX']);
}
