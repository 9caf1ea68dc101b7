import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.js';
import { lowerOtherThreads } from './adapters/workers/priority.js';
import { ensureWebBuilt } from './modules/web/web-build.js';
import { createLogger, startLoupe } from './server.js';

function roleArgument(argv: string[]): string | undefined {
  const index = argv.findIndex((a) => a === '--role' || a.startsWith('--role='));
  if (index === -1) return undefined;
  const arg = argv[index]!;
  return arg.includes('=') ? arg.slice('--role='.length) : (argv[index + 1] ?? '');
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, { role: roleArgument(process.argv.slice(2)) });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config);
  // The web app is built by npm install; a changed source (a pull, an edit) is built here before the page is served.
  await ensureWebBuilt().then(
    (built) => built && log.info('web app built'),
    (err: unknown) => log.warn({ err }, 'web app build failed: the API runs without the page'),
  );
  const loupe = await startLoupe(config, { log });
  // This process is Loupe's alone: its event loop goes before its own helper threads (decision 0040).
  lowerOtherThreads(config.backgroundNice);
  log.info({ role: config.role, url: loupe.url, dataDir: config.dataDir, database: config.databaseUrl ? 'external' : 'embedded' }, 'Loupe started');

  // SIGINT/SIGTERM: stop taking requests, let running tasks reach a checkpoint, then stop the database.
  // A second signal (npm and tsx forward a process group's TERM, so one stop brings two) hurries the exit; the embedded
  // database's exit hook still stops it.
  const onSecondSignal = (signal: string) => log.warn({ signal }, 'second signal: exiting now, without waiting for running tasks');
  closeWithGrace({ delay: 30_000, logger: log, onSecondSignal }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await loupe.close();
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
