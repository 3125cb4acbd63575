import { loadConfig, type Config, type ConfigFlags } from '../../src/daemon/config.js';

/**
 * A daemon's configuration for a test: loopback on a free port, the men's league, summaries every
 * second (the floor, so a replayed game moves quickly) and no logs; `flags` override any of it.
 * The environment is left out so a developer's own COURTSIDE_* settings never leak into a test.
 */
export function testDaemonConfig(upstream: string, flags: ConfigFlags = {}): Config {
  return loadConfig({
    env: {},
    flags: {
      port: 0,
      host: '127.0.0.1',
      upstream,
      leagues: 'mens',
      summaryInterval: 1000,
      logLevel: 'silent',
      ...flags,
    },
  });
}
