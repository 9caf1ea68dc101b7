// Worker thread entry for computeSelection: loads the TypeScript through tsx, like the index worker.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { lowerThreadPriority } = await import('../../adapters/workers/priority.ts');
lowerThreadPriority();
const { computeSelection } = await import('./compute-selection.ts');
try {
  const output = await computeSelection(workerData, (fraction, message) => parentPort.postMessage({ progress: { fraction, message } }));
  parentPort.postMessage({ ok: true, output }, [output.picks.buffer]);
} catch (err) {
  parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
}
