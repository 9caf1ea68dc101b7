// Worker thread entry for computeIndex: loads the TypeScript through tsx, like the image workers.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { lowerThreadPriority } = await import('../../adapters/workers/priority.ts');
lowerThreadPriority();
const { computeIndex } = await import('./compute-index.ts');
try {
  const output = await computeIndex(workerData, (fraction, message) => parentPort.postMessage({ progress: { fraction, message } }));
  parentPort.postMessage({ ok: true, output }, [output.mean.buffer, output.nearest.buffer, output.uniqueness.buffer, output.outliers.buffer, output.map.x.buffer, output.map.y.buffer, ...output.levels.map((l) => l.buffer)]);
} catch (err) {
  parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
}
