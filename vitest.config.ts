import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/support/cluster.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each contract file runs its own embedded PostgreSQL; two at a time suit a 2-core machine.
    maxWorkers: 2,
  },
});
