// Worker thread entry: loads the TypeScript runner through tsx, the same way the CLI runs in place.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serve } = await import('./enrichment-worker-serve.ts');
serve(parentPort);
