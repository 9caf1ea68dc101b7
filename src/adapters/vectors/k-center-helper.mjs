// A helper thread of greedy k-center (k-center.ts Crew): loads the TypeScript through tsx, like the index worker.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { helperLoop } = await import('./k-center.ts');
helperLoop(workerData.data, workerData.t);
