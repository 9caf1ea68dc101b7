import { Command, CommanderError } from 'commander';
import { addMediaCommands } from './commands/add-media.js';
import { adminCommands } from './commands/admin.js';
import { authCommands } from './commands/auth.js';
import { backupCommands } from './commands/backup.js';
import { datasetsCommands } from './commands/datasets.js';
import { enrichCommands } from './commands/enrich.js';
import { exploreCommands } from './commands/explore.js';
import { exportCommands } from './commands/export.js';
import { notificationsCommands } from './commands/notifications.js';
import { snapshotsCommands } from './commands/snapshots.js';
import { tasksCommands } from './commands/tasks.js';
import { loadSettings } from './config.js';
import { errorMessage, exitCodeFor } from './exit-codes.js';

const program = new Command('loupe')
  .description(
    'Loupe from the command line.\n' +
      'Data commands talk to a server over HTTP: `loupe login` first, or set LOUPE_URL, LOUPE_API_KEY, LOUPE_API_SECRET.\n' +
      'Admin commands (user, key, token, backup, restore) open the server\'s database: DATA_DIR (default ./data) or DATABASE_URL.\n' +
      'Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 conflict, 130 interrupted.',
  )
  // Usage errors exit 2 through the catch below rather than commander's process.exit(1).
  .exitOverride()
  .showHelpAfterError('(add --help for usage)');

authCommands(program);
datasetsCommands(program);
addMediaCommands(program);
exploreCommands(program);
snapshotsCommands(program);
exportCommands(program);
enrichCommands(program);
tasksCommands(program);
notificationsCommands(program);
adminCommands(program);
backupCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const code = exitCodeFor(err);
  // commander has printed its own errors (and the help) already.
  if (!(err instanceof CommanderError)) process.stderr.write(`${errorMessage(err, serverUrl())}\n`);
  process.exitCode = code;
}

function serverUrl(): string | undefined {
  try {
    return loadSettings().url;
  } catch {
    return undefined;
  }
}
