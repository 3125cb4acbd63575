import { defineConfig } from 'vitest/config';
import { INTEGRATION_FILES, LONG_FILES, SHARED_TEST } from './vitest.integration.config.js';

/**
 * `npm test`: units, contracts and the fast in-process integration tests, every test file but
 * those vitest.integration.config.ts lists (`npm run test:integration`).
 */
export default defineConfig({
  test: {
    ...SHARED_TEST,
    include: ['test/**/*.test.ts'],
    exclude: [...INTEGRATION_FILES, ...LONG_FILES, 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
