// Worker thread entry for computeIndex: loads the TypeScript through tsx, like the image workers.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { lowerThreadPriority } = await import('../../adapters/workers/priority.ts');
lowerThreadPriority();
const { computeIndex } = await import('./compute-index.ts');
// One computation per message, one at a time (src/adapters/workers/compute-thread.ts keeps the thread for the next).
parentPort.on('message', async (input) => {
  try {
    const output = await computeIndex(input, (fraction, message) => parentPort.postMessage({ progress: { fraction, message } }));
    parentPort.postMessage({ ok: true, output }, [output.mean.buffer, output.nearest.buffer, output.uniqueness.buffer, output.outliers.buffer, output.map.x.buffer, output.map.y.buffer, ...output.levels.map((l) => l.buffer)]);
  } catch (err) {
    parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
