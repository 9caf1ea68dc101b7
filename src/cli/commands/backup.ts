import type { Command } from 'commander';
import type { BackupProgress } from '../../modules/backup/backup-target.js';
import { ConflictError } from '../exit-codes.js';
import { withInterrupt } from '../interrupt.js';
import { megabytes, note, print } from '../output.js';
import { barsWanted, statusBar } from '../progress.js';

/** The instance the command works on, as the server reads it: DATA_DIR or DATABASE_URL, and BLOB_URL. */
async function instance() {
  const [{ default: pino }, { loadConfig }] = await Promise.all([import('pino'), import('../../config.js')]);
  // Logs go to stderr: stdout carries only the command's answer.
  return { config: loadConfig(process.env), log: pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2)) };
}

/** One bar per phase (database, then blobs) on a terminal; nothing elsewhere. */
function phaseBars(json: boolean) {
  const enabled = barsWanted(json);
  // Promises, set at once: progress comes faster than cli-progress loads.
  const bars = new Map<string, ReturnType<typeof statusBar>>();
  let last: ReturnType<typeof statusBar> | null = null;
  return {
    update(p: BackupProgress) {
      let bar = bars.get(p.phase);
      if (!bar) {
        const previous = last;
        bar = previous ? previous.then((b) => (b.stop(), statusBar(enabled, p.phase))) : statusBar(enabled, p.phase);
        bars.set(p.phase, bar);
        last = bar;
      }
      void bar.then((b) => b.update(p.total ? (100 * p.done) / p.total : null, `${p.done}/${p.total ?? '?'} ${p.detail}`));
    },
    stop: async () => (await last)?.stop(),
  };
}

/** A refusal that changed nothing (a folder not empty) exits as a conflict. */
async function refusalsAsConflicts<T>(work: () => Promise<T>): Promise<T> {
  const { TargetNotEmptyError } = await import('../../modules/backup/backup-target.js');
  try {
    return await work();
  } catch (err) {
    throw err instanceof TargetNotEmptyError ? new ConflictError(err.message) : err;
  }
}

/** backup and restore: a whole instance (database, blobs, server key) to a folder and back, no HTTP. */
export function backupCommands(program: Command): void {
  program
    .command('backup')
    .description(
      'back the whole instance up into DIR while the server runs: every table from one consistent snapshot, the waiting jobs, ' +
        'every blob the rows reference (checked by hash), the server key (DATA_DIR or DATABASE_URL, and BLOB_URL, as the server)',
    )
    .argument('<dir>', 'a new or empty folder')
    .option('--json', 'print the manifest summary as one JSON object')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { config, log } = await instance();
      const { backupInstance } = await import('../../modules/backup/backup.service.js');
      const bars = phaseBars(Boolean(opts.json));
      const manifest = await refusalsAsConflicts(() =>
        withInterrupt('interrupted: the backup folder was emptied again', (signal) =>
          backupInstance({ config, dir, log, signal, progress: bars.update }).finally(bars.stop),
        ),
      );
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      const summary = { dir, tables: manifest.tables.length, rows, jobs: manifest.queue.rows, blobs: manifest.blobs.count, blob_bytes: manifest.blobs.total_bytes, migration: manifest.migrations.at(-1) };
      print(summary, Boolean(opts.json), `backed up ${summary.tables} tables (${rows} rows), ${summary.jobs} waiting jobs, ${summary.blobs} blobs (${megabytes(summary.blob_bytes)} MB) into ${dir}`);
      if (manifest.secret_key === 'file') note(`${dir}/secret.key decrypts the instance's API secrets: keep the backup as private as DATA_DIR`);
    });

  program
    .command('restore')
    .description(
      'restore a backup made by `loupe backup` into an empty DATA_DIR (or an empty DATABASE_URL database, and BLOB_URL); ' +
        'then `npm start` on it serves the same data. Every file is checked against its hash first',
    )
    .argument('<dir>', 'the backup folder')
    .option('--json', 'print the summary as one JSON object')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const { config, log } = await instance();
      const { restoreInstance } = await import('../../modules/backup/restore.service.js');
      const bars = phaseBars(Boolean(opts.json));
      const { manifest, jobs } = await refusalsAsConflicts(() =>
        withInterrupt('interrupted: DATA_DIR was emptied again; run the restore again', (signal) =>
          restoreInstance({ config, dir, log, signal, progress: bars.update }).finally(bars.stop),
        ),
      );
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      const summary = { data_dir: config.dataDir, tables: manifest.tables.length, rows, jobs, blobs: manifest.blobs.count, migration: manifest.migrations.at(-1), backed_up_at: manifest.created_at };
      print(summary, Boolean(opts.json), `restored ${summary.tables} tables (${rows} rows), ${jobs} waiting jobs and ${summary.blobs} blobs, as of ${manifest.created_at}, into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`);
      if (manifest.secret_key === 'environment') note('the backed-up server took its key from LOUPE_SECRET_KEY: start the restored one with the same LOUPE_SECRET_KEY');
      else if (config.secretKey) note('LOUPE_SECRET_KEY is set, so the restored server will not use the backup\'s secret.key (now in DATA_DIR): unset it, or API secrets will not verify');
    });
}
