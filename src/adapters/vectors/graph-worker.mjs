// Worker thread entry for the neighbour graph's trees and joins: loads the TypeScript through tsx, like the image workers.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serve } = await import('./graph-worker-serve.ts');
serve(parentPort, workerData);
