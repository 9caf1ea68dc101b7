// Worker thread entry for the embedder-alone baseline: loads the TypeScript through tsx, as the image workers do.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serveEmbedWorker } = await import('./embed-baseline.ts');
await serveEmbedWorker(parentPort, workerData);
