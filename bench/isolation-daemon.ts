/**
 * The daemon of `bench/isolation.ts`, in its own process so its event loop is measured alone: the
 * configuration a deployment behind a proxy would have (the bench's clients come through
 * `X-Forwarded-For` from 127.0.0.1, a trusted proxy), one league, summaries polled every second.
 * Argument: the upstream URL. Sends `{ url }` over IPC once listening; exits on `close`.
 */
import { createDaemon } from '../src/daemon/daemon.js';
import { loadConfig } from '../src/daemon/config.js';

const config = loadConfig({
  env: {
    COURTSIDE_UPSTREAM: process.argv[2] ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    COURTSIDE_LEAGUES: 'mens',
    COURTSIDE_SUMMARY_INTERVAL_MS: '1000',
    COURTSIDE_TRUSTED_PROXIES: '127.0.0.1',
    ...(process.env.BENCH_ON_DEMAND_RATE
      ? { COURTSIDE_ON_DEMAND_RATE: process.env.BENCH_ON_DEMAND_RATE }
      : {}),
  },
});
const daemon = createDaemon(config);
await daemon.start();
process.send?.({ url: daemon.url });
process.on('message', (m: { cmd: string }) => {
  if (m.cmd === 'close') void daemon.close().then(() => process.exit(0));
});
