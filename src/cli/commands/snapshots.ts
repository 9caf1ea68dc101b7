import type { Command } from 'commander';
import type { Snapshot } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { fields, print, table } from '../output.js';
import { withJson } from '../options.js';
import { datasetFields } from '../present.js';
import { waitForDataset, waitForTask } from '../waiting.js';

interface Json { json?: boolean }

function snapshotTable(snapshots: Snapshot[]): string {
  if (snapshots.length === 0) return '(no snapshots)';
  return table(
    ['SNAPSHOT_ID', 'CURRENT', 'IMAGES', 'VIDEOS', 'REASON', 'CREATED', 'NAME'],
    snapshots.map((s) => [s.snapshot_id, s.is_current ? 'yes' : '', s.n_images, s.n_videos, s.reason, s.created_at, s.snapshot_name]),
  );
}

const snapshotLine = (s: Snapshot) => `${s.snapshot_id}  ${s.snapshot_name}${s.is_current ? '  (current)' : ''}`;

export function snapshotsCommands(program: Command): void {
  const snapshots = program.command('snapshots').description('list, create, rename, restore, clone and delete a dataset\'s snapshots');

  withJson(snapshots.command('list').description('a dataset\'s snapshots, newest first').argument('<dataset_id>'), 'an array of snapshots')
    .action(async (id: string, opts: Json) => {
      const list = await connect().snapshots(id);
      print(list, Boolean(opts.json), () => snapshotTable(list));
    });

  withJson(
    snapshots
      .command('create')
      .description('save the dataset\'s current state as a snapshot (it becomes the current one)')
      .argument('<dataset_id>')
      .argument('<name>')
      .option('--description <text>', 'a description'),
    'the snapshot',
  ).action(async (id: string, name: string, opts: Json & { description?: string }) => {
    const s = await connect().createSnapshot(id, { name, ...(opts.description !== undefined ? { description: opts.description } : {}) });
    print(s, Boolean(opts.json), () => `created ${snapshotLine(s)}`);
  });

  withJson(snapshots.command('rename').description('rename a snapshot').argument('<dataset_id>').argument('<snapshot_id>').argument('<name>'), 'the snapshot')
    .action(async (id: string, snapshotId: string, name: string, opts: Json) => {
      const s = await connect().updateSnapshot(id, snapshotId, { name });
      print(s, Boolean(opts.json), () => `renamed ${snapshotLine(s)}`);
    });

  withJson(
    snapshots
      .command('restore')
      .description('replace the dataset\'s data with a snapshot\'s (cannot be undone); a SNAPSHOT_RESTORE task')
      .argument('<dataset_id>')
      .argument('<snapshot_id>', 'a snapshot id, or `current`')
      .option('--wait', 'wait until the restore ends, showing its progress'),
    '{"task_id","dataset"}',
  ).action(async (id: string, snapshotId: string, opts: Json & { wait?: boolean }) => {
    const loupe = connect();
    const json = Boolean(opts.json);
    const { taskId } = await loupe.restoreSnapshot(id, snapshotId);
    if (opts.wait && taskId) await waitForTask(loupe, taskId, json);
    const dataset = opts.wait ? await waitForDataset(loupe, id, json) : await loupe.dataset(id);
    print({ task_id: taskId, dataset }, json, () => [fields([['task', taskId ?? '-']]), datasetFields(dataset)].join('\n'));
  });

  withJson(
    snapshots
      .command('clone')
      .description('make a new, independent dataset from a snapshot; a SNAPSHOT_CLONE task on the new dataset')
      .argument('<dataset_id>')
      .argument('<snapshot_id>')
      .option('--wait', 'wait until the new dataset is READY, showing its progress'),
    '{"task_id","dataset_id","dataset"}',
  ).action(async (id: string, snapshotId: string, opts: Json & { wait?: boolean }) => {
    const loupe = connect();
    const json = Boolean(opts.json);
    const { taskId, datasetId } = await loupe.cloneSnapshot(id, snapshotId);
    if (opts.wait && taskId) await waitForTask(loupe, taskId, json);
    const dataset = datasetId ? (opts.wait ? await waitForDataset(loupe, datasetId, json) : await loupe.dataset(datasetId)) : null;
    print({ task_id: taskId, dataset_id: datasetId, dataset }, json, () =>
      [fields([['task', taskId ?? '-']]), dataset ? datasetFields(dataset) : fields([['dataset', datasetId ?? '-']])].join('\n'),
    );
  });

  withJson(snapshots.command('delete').description('delete a snapshot (not the current one)').argument('<dataset_id>').argument('<snapshot_id>'), '{"deleted"}')
    .action(async (id: string, snapshotId: string, opts: Json) => {
      await connect().deleteSnapshot(id, snapshotId);
      print({ deleted: snapshotId }, Boolean(opts.json), `deleted snapshot ${snapshotId}`);
    });
}
