// Worker thread entry for computeSelection: loads the TypeScript through tsx, like the index worker.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { lowerThreadPriority } = await import('../../adapters/workers/priority.ts');
lowerThreadPriority();
const { computeSelection } = await import('./compute-selection.ts');
// One computation per message, one at a time (src/adapters/workers/compute-thread.ts keeps the thread for the next).
parentPort.on('message', async (input) => {
  try {
    const output = await computeSelection(input, (fraction, message) => parentPort.postMessage({ progress: { fraction, message } }));
    parentPort.postMessage({ ok: true, output }, [output.picks.buffer]);
  } catch (err) {
    parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
