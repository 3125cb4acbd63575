import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

/**
 * `npm run test:integration`: the tests that start processes, browsers or Redis topologies, play
 * games in real time, or take more than a few seconds on two cores. Every other test file is in
 * `npm test` (vitest.config.ts), so a new test lands there unless it is listed here. Membership
 * was decided from one measured full run; docs/reliability.md ("The two suites") says what is in
 * each.
 */
export const INTEGRATION_FILES: readonly string[] = [
  // Redis topologies and restarts: redis-server processes of their own (Sentinel, Cluster).
  'test/reliability/sentinel-failover.test.ts',
  'test/reliability/cluster-game.test.ts',
  'test/reliability/redis-restart.test.ts',
  'test/bus/redis-cluster.test.ts',
  'test/bus/redis-connection.test.ts',
  'test/bus/redis.test.ts',
  'test/workers/producer.test.ts',
  // The short soak: daemons and a worker as child processes under every fault.
  'test/reliability/soak.test.ts',
  // Spawned CLIs and processes: the built command line, tsc, python3, curl, `npm pack`.
  'test/cli/demo-overlays.test.ts',
  'test/cli/demo.test.ts',
  'test/cli/fail.test.ts',
  'test/cli/help.test.ts',
  'test/cli/installed-package.test.ts',
  'test/cli/op.test.ts',
  'test/cli/record.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/shutdown.test.ts',
  'test/cli/watch-hints.test.ts',
  'test/cli/watch.test.ts',
  'test/espn-client/user-agent.test.ts',
  'test/core/log.test.ts',
  'test/daemon/upstream-health.test.ts',
  'test/live-client/recovery.test.ts',
  'test/live-client/types.test.ts',
  'test/readme.test.ts',
  'test/scripts/layers.test.ts',
  'test/server/sse.test.ts',
  'test/simulator/cli.test.ts',
  'test/workers/bots-processes.test.ts',
  'test/workers/cli.test.ts',
  'test/workers/webhooks/signature.test.ts',
  // Chromium.
  'test/live-client/browser.test.ts',
  'test/server/overlay.test.ts',
  'test/server/overlay-broadcast.test.ts',
  'test/server/overlay-layout.test.ts',
  'test/server/overlay-refusal.test.ts',
  'test/server/overlay-states.test.ts',
  'test/server/overlay-ticker.test.ts',
  // Real-time replays of whole games, load, and waits of seconds on real clocks.
  'test/daemon/daemon.test.ts',
  'test/daemon/push.test.ts',
  'test/daemon/roles.test.ts',
  'test/server/viewer-limits.test.ts',
  'test/server/gateway-delay.test.ts',
  'test/server/gateway-load.test.ts',
  'test/streams/board-days-live.test.ts',
  'test/streams/late-plays-replay.test.ts',
  'test/streams/push-lookalike.test.ts',
  'test/streams/push-replay.test.ts',
  'test/streams/replay.test.ts',
  'test/streams/situation-replay.test.ts',
  'test/workers/alerts/worker.test.ts',
  'test/workers/destinations/chat-delivery.test.ts',
  'test/workers/destinations/examples-doc.test.ts',
  'test/workers/destinations/recorded-games.test.ts',
  'test/workers/e2e.test.ts',
  // FastCast checked from outside and through the command line: daemons as child processes, the
  // look-alike's bombs, doctor's ten-second watches, captures recorded and replayed in real time.
  'test/cli/college-ops.test.ts',
  'test/cli/doctor-lookalike.test.ts',
  'test/cli/doctor-tls.test.ts',
  'test/cli/doctor.test.ts',
  'test/cli/record-push.test.ts',
  'test/daemon/game-feed.test.ts',
  'test/streams/push-bomb.test.ts',
  'test/streams/push-lookalike-oddities.test.ts',
  'test/streams/push-oddities.test.ts',
];

/** The full soak (~13 minutes): `npm run test:reliability` only. */
export const LONG_FILES: readonly string[] = ['test/reliability/**/*.long.test.ts'];

/** What both suites share. */
export const SHARED_TEST: InlineConfig = {
  pool: 'forks',
  // Two cores: integration files start servers and child processes; more workers only thrash.
  maxWorkers: 2,
  // A fresh clone without REDIS_URL still runs the Redis tests when redis-server is installed.
  globalSetup: ['test/support/global-redis.ts'],
  // The tests skipped for want of recorded ESPN payloads, counted in one line.
  reporters: ['default', './test/support/skip-summary-reporter.ts'],
};

/** The integration suite as a project of vitest.config.ts (`vitest run --project integration`). */
export const INTEGRATION_PROJECT = {
  extends: true,
  test: {
    name: 'integration',
    include: [...INTEGRATION_FILES],
    // The built package too: these tests run the CLI, the examples and the installed tarball.
    globalSetup: ['test/support/global-redis.ts', 'test/support/global-build.ts'],
    exclude: [...LONG_FILES, 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
} satisfies TestProjectInlineConfiguration;

// Alone (`vitest run --config vitest.integration.config.ts`), the same suite.
export default defineConfig({ test: { ...SHARED_TEST, ...INTEGRATION_PROJECT.test } });
