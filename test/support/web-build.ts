import { ensureWebBuilt } from '../../src/modules/web/web-build.js';

/** Vitest's global setup: the browser tests need web/dist as the sources are now (npm install builds it; an edit may not have). */
export default async function buildWeb(): Promise<void> {
  await ensureWebBuilt();
}
