import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/support/cluster.ts', 'test/support/web-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each contract file runs its own embedded PostgreSQL; two at a time suit a 2-core machine.
    maxWorkers: 2,
    // A worker reuses the modules it loaded for its next file (a third of a contract file's time went to importing the
    // app again); each file still starts and closes its own server, so no state passes between files.
    isolate: false,
  },
});
