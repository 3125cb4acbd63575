import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The soaks run with `npm run test:reliability`; the short soak joins `npm test` once issue 8's
    // full soak is green (see docs/reliability.md).
    exclude: ['test/reliability/**/*.long.test.ts', 'test/reliability/soak.test.ts', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration files start servers and child processes; more workers only thrash.
    maxWorkers: 2,
  },
});
