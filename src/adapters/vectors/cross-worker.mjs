// Worker thread entry for leakage's search across sides: loads the TypeScript through tsx, like the graph workers.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serve } = await import('./cross-worker-serve.ts');
serve(parentPort);
