import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startMain } from '../support/main-process.js';
import { threadsOf } from '../support/proc.js';
import { seededDataDir } from '../support/server.js';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the server process (npm start)', () => {
  it('keeps its event loop at nice 0 and its other threads at BACKGROUND_NICE', async () => {
    const dataDir = seededDataDir();
    dataDirs.push(dataDir);
    const { proc, exited } = await startMain(dataDir);
    try {
      const own = threadsOf(proc.pid!);
      expect(own.find((t) => t.tid === proc.pid)).toMatchObject({ nice: 0, policy: 0 });
      const helpers = own.filter((t) => t.tid !== proc.pid);
      expect(helpers.length).toBeGreaterThan(4); // libuv's pool and V8's helpers
      expect(helpers.filter((t) => t.nice < 10)).toEqual([]);

    } finally {
      proc.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
