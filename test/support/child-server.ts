// A Loupe server in its own process with the test job registered, so tests can kill it mid-task.
import { loadConfig } from '../../src/config.js';
import { startLoupe } from '../../src/server.js';
import { testCreationJob } from './test-jobs.js';

const loupe = await startLoupe(loadConfig(process.env), {
  jobs: [testCreationJob],
  workerTimings: { heartbeatMs: 500, staleAfterSeconds: 3, recoveryIntervalMs: 1_000, abortPollMs: 50 },
});
process.stdout.write(`${JSON.stringify({ url: loupe.url })}\n`);
process.once('SIGTERM', () => {
  loupe.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
