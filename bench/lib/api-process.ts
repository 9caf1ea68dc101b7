// One Loupe process started from the environment, for benchmarks that measure a server apart from their
// load generator (its RSS, its event loop). Prints {"url", "pid"} once listening; SIGTERM closes it.
import { loadConfig } from '../../src/config.js';
import { startLoupe } from '../../src/server.js';

const loupe = await startLoupe(loadConfig(process.env));
process.stdout.write(`${JSON.stringify({ url: loupe.url, pid: process.pid })}\n`);
// With --expose-gc, SIGUSR2 runs a full collection, so RSS readings compare live memory rather than GC timing.
process.on('SIGUSR2', () => (globalThis as { gc?: () => void }).gc?.());
process.once('SIGTERM', () => {
  loupe.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
