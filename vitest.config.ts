import { defineConfig } from 'vitest/config';
import {
  INTEGRATION_FILES,
  INTEGRATION_PROJECT,
  LONG_FILES,
  SHARED_TEST,
} from './vitest.integration.config.js';

/**
 * Two projects: `unit` (`npm test`: units, contracts and the fast in-process integration tests,
 * every test file but those vitest.integration.config.ts lists) and `integration`
 * (`npm run test:integration`). `npx vitest run <file>` finds a file in either.
 */
export default defineConfig({
  test: {
    ...SHARED_TEST,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...INTEGRATION_FILES, ...LONG_FILES, 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      INTEGRATION_PROJECT,
    ],
  },
});
