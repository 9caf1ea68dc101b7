// Pool worker entry (a thread, or a child process at a lower priority): loads the TypeScript through tsx, the same
// way the CLI runs in place. The port comes first, so a child process lowers its priority before the heavy imports.
import { register } from 'tsx/esm/api';

register();
const { workerPort } = await import('../workers/worker-port.ts');
const worker = workerPort();
const { serve } = await import('./image-worker-serve.ts');
serve(worker);
