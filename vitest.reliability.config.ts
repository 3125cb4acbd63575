import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20 * 60_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    globalSetup: ['test/support/global-redis.ts'],
  },
});
