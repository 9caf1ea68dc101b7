import path from 'node:path';
import { Option, type Command } from 'commander';
import { connect } from '../client.js';
import { withInterrupt } from '../interrupt.js';
import { print, size } from '../output.js';
import { withJson } from '../options.js';
import { barsWanted, downloadBar, statusBar } from '../progress.js';

interface ExportOptions {
  format: 'json' | 'parquet';
  images?: boolean;
  output: string;
  json?: boolean;
}

export function exportCommands(program: Command): void {
  withJson(
    program
      .command('export')
      .description('export a dataset as a ZIP (metadata as JSON or Parquet, optionally the images), wait for it, and download it')
      .argument('<dataset_id>')
      .addOption(new Option('--format <format>', 'the metadata file\'s format').choices(['json', 'parquet']).makeOptionMandatory())
      .option('--images', 'put the images in the archive too (images/)')
      .requiredOption('-o, --output <file>', 'where to write the ZIP'),
    '{"export_task_id","path","bytes"}',
  ).action(async (id: string, opts: ExportOptions) => {
    const loupe = connect();
    const json = Boolean(opts.json);
    const target = path.resolve(opts.output);
    const { exportTaskId } = await loupe.startExport(id, { format: opts.format, includeImages: Boolean(opts.images), fileName: path.basename(target) });

    const waiting = await statusBar(barsWanted(json), 'export');
    try {
      await withInterrupt(`stopped waiting for export ${exportTaskId}`, (signal) =>
        loupe.waitForExport(id, exportTaskId, { signal, onProgress: (s: { status: string }) => waiting.update(s.status === 'COMPLETED' ? 100 : 0, s.status) }),
      );
    } finally {
      waiting.stop();
    }

    const bar = await downloadBar(barsWanted(json));
    let file: { path: string; bytes: number };
    try {
      file = await withInterrupt(`download of export ${exportTaskId} stopped; nothing was written to ${target}`, (signal) =>
        loupe.download(id, exportTaskId, target, { signal, onProgress: (done, total) => bar.update(done, total) }),
      );
    } finally {
      bar.stop();
    }
    print({ export_task_id: exportTaskId, path: file.path, bytes: file.bytes }, json, `wrote ${file.path} (${size(file.bytes)})`);
  });
}
