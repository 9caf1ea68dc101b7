import { Option, type Command } from 'commander';
import type { Dataset } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { uploadStateDir } from '../config.js';
import { UsageError } from '../exit-codes.js';
import { fields, print } from '../output.js';
import { integer, withJson } from '../options.js';
import { datasetFields, datasetTable } from '../present.js';
import { ask } from '../prompt.js';
import { UploadStateFiles } from '../upload-state.js';
import { mediaFolder, uploadFolder, type UploadResult } from './dataset-upload.js';

interface Json { json?: boolean }
interface UploadOptions extends Json { wait?: boolean; batchSize?: number }

function uploadSummary(r: UploadResult): string {
  const shown = r.skipped_files.slice(0, 5).map((s) => `  ${s.path}: ${s.reason}`);
  const more = r.skipped > shown.length ? [`  … and ${r.skipped - shown.length} more`] : [];
  return [
    datasetFields(r.dataset, [['files', `${r.files} media (${r.uploaded} sent by this run), ${r.skipped} skipped (not media)`]]),
    ...shown,
    ...more,
  ].join('\n');
}

export function datasetsCommands(program: Command): void {
  const datasets = program.command('datasets').description('list, show, create, resume, rename, delete and share datasets');

  withJson(datasets.command('list').description('the datasets you own or that are shared with you, newest first'), 'an array of datasets')
    .action(async (opts: Json) => {
      const all: Dataset[] = [];
      for await (const d of connect().datasets()) all.push(d);
      print(all, Boolean(opts.json), () => datasetTable(all));
    });

  withJson(datasets.command('show').description('a dataset\'s status and counts').argument('<dataset_id>'), 'the dataset')
    .action(async (id: string, opts: Json) => {
      const d = await connect().dataset(id);
      print(d, Boolean(opts.json), () => datasetFields(d));
    });

  withJson(
    datasets
      .command('create')
      .description('create a dataset from a folder of images and videos (recursive; files that are not media are skipped and counted)')
      .argument('<name>', 'the dataset\'s name')
      .argument('<dir>', 'the folder to upload')
      .option('--wait', 'wait until the dataset is READY, showing its progress')
      .option('--batch-size <n>', 'files per upload request', integer(1, 1000), 50),
    '{"dataset","files","uploaded","skipped","skipped_files","resumed"}',
  ).action(async (name: string, dir: string, opts: UploadOptions) => {
    const result = await uploadFolder(connect(), new UploadStateFiles(uploadStateDir()), { name, folder: mediaFolder(dir) }, {
      batchSize: opts.batchSize,
      wait: Boolean(opts.wait),
      json: Boolean(opts.json),
    });
    print(result, Boolean(opts.json), () => uploadSummary(result));
  });

  withJson(
    datasets
      .command('resume')
      .description('go on with an interrupted `datasets create`: sends only the files the server has not accepted yet')
      .argument('[dataset_id]', 'the dataset named when the upload began (without it: list the uploads waiting)')
      .option('--dir <dir>', 'the folder, if it has moved since the upload began')
      .option('--wait', 'wait until the dataset is READY, showing its progress')
      .option('--batch-size <n>', 'files per upload request', integer(1, 1000), 50),
    '{"dataset","files","uploaded","skipped","skipped_files","resumed"}, or without an id the waiting uploads',
  ).action(async (id: string | undefined, opts: UploadOptions & { dir?: string }) => {
    const states = new UploadStateFiles(uploadStateDir());
    if (!id) {
      const waiting = states.list().map((s) => ({ dataset_id: s.state.datasetId, name: s.name, folder: s.folder, sent: s.state.sent.length }));
      print(waiting, Boolean(opts.json), () =>
        waiting.map((w) => `${w.dataset_id}  ${w.sent} files sent  ${w.folder}  ${w.name}`).join('\n') || '(no interrupted uploads)',
      );
      return;
    }
    const saved = states.load(id);
    if (!saved) throw new UsageError(`No interrupted upload of dataset ${id} in ${states.dir}`);
    const folder = mediaFolder(opts.dir ?? saved.folder);
    const result = await uploadFolder(connect(), states, { name: saved.name, folder, state: saved.state }, {
      batchSize: opts.batchSize,
      wait: Boolean(opts.wait),
      json: Boolean(opts.json),
    });
    print(result, Boolean(opts.json), () => uploadSummary(result));
  });

  withJson(datasets.command('rename').description('give a dataset a new name').argument('<dataset_id>').argument('<name>'), 'the dataset')
    .action(async (id: string, name: string, opts: Json) => {
      const d = await connect().updateDataset(id, { display_name: name });
      print(d, Boolean(opts.json), `renamed ${d.id} to ${d.display_name}`);
    });

  withJson(
    datasets
      .command('delete')
      .description('delete a dataset and everything in it (owner only; asks first unless --yes)')
      .argument('<dataset_id>')
      .option('--yes', 'do not ask'),
    '{"deleted"}',
  ).action(async (id: string, opts: Json & { yes?: boolean }) => {
    const loupe = connect();
    if (!opts.yes) {
      if (!process.stdin.isTTY) throw new UsageError('deleting needs --yes (no terminal to ask on)');
      const d = await loupe.dataset(id);
      const answer = await ask(`Delete dataset "${d.display_name}" (${d.n_images} images, ${d.n_videos} videos)? Type yes`, { option: '--yes' });
      if (answer !== 'yes') throw new UsageError('not deleted');
    }
    await loupe.deleteDataset(id);
    print({ deleted: id }, Boolean(opts.json), `deleted ${id}`);
  });

  withJson(
    datasets
      .command('share')
      .description('share a dataset with a user by e-mail')
      .argument('<dataset_id>')
      .argument('<email>')
      .addOption(new Option('--role <role>', 'what they may do').choices(['viewer', 'editor']).default('viewer')),
    'the access entry',
  ).action(async (id: string, email: string, opts: Json & { role: 'viewer' | 'editor' }) => {
    const entry = await connect().share(id, email, opts.role);
    print(entry, Boolean(opts.json), `shared ${id} with ${email} as ${opts.role}`);
  });
}
