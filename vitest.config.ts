import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The full soak (~13 minutes) runs with `npm run test:reliability`; the short one is in here.
    exclude: ['test/reliability/**/*.long.test.ts', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration files start servers and child processes; more workers only thrash.
    maxWorkers: 2,
    // A fresh clone without REDIS_URL still runs the Redis tests when redis-server is installed.
    globalSetup: ['test/support/global-redis.ts'],
  },
});
