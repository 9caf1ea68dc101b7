// Builds the web app into web/dist when its sources changed: run by `npm install` (prepare); `npm start` does the same.
import { ensureWebBuilt } from '../src/modules/web/web-build.js';

const started = Date.now();
const built = await ensureWebBuilt();
process.stdout.write(built ? `web app built in ${Date.now() - started} ms\n` : 'web app up to date\n');
