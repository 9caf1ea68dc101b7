// A Loupe process with the production jobs, for tests that run the API and the worker in separate processes.
import { loadConfig } from '../../src/config.js';
import { startLoupe } from '../../src/server.js';

const loupe = await startLoupe(loadConfig(process.env), {
  workerTimings: { heartbeatMs: 500, staleAfterSeconds: 3, recoveryIntervalMs: 1_000, abortPollMs: 50 },
});
process.stdout.write(`${JSON.stringify({ ready: true, url: loupe.url })}\n`);
process.once('SIGTERM', () => {
  loupe.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
