import { afterAll, describe, it } from 'vitest';
import { getTestRedis } from '../support/redis.js';
import { assertSoak } from './harness/assert-soak.js';
import { runSoak, sleep } from './harness/soak.js';

/**
 * The short soak (runs in `npm test`): 4 games at 150x speed, 150 WebSocket clients, two daemons
 * on one Redis, an alert worker and a webhook receiver. One fault after another, each for a few
 * seconds: the upstream failing every request, latency spikes, malformed bodies, the webhook
 * receiver down, then one daemon SIGKILLed. The full soak, with a Redis restart and the RSS
 * flatness check, is soak.long.test.ts.
 */
const redis = await getTestRedis();

describe.skipIf(!redis)('short soak', () => {
  afterAll(async () => redis?.cleanup());

  it('loses nothing and duplicates nothing through upstream faults, a receiver outage and a daemon kill', async () => {
    const r = await runSoak({
      redisUrl: redis!.url,
      prefix: redis!.prefix,
      games: 4,
      speed: 150,
      // 10 game minutes apart: 4 s of wall time at 150x.
      staggerMs: 10 * 60_000,
      clients: 150,
      seed: 8,
      name: 'short',
      async faults({ upstream, daemons, receiver, log, killAndReplace }) {
        const phase = async (name: string, ms: number, on: () => void, off: () => void): Promise<void> => {
          log(`fault: ${name}`);
          on();
          await sleep(ms);
          off();
          await sleep(3_000);
        };
        const clear = (): void => upstream.faults.set({});
        await sleep(10_000);
        await phase(
          'upstream fails every request for 8 s',
          8_000,
          () => upstream.faults.set({ error: 1 }),
          clear,
        );
        await phase(
          '2 s latency on every request for 5 s',
          5_000,
          () => upstream.faults.set({ latency: 2_000 }),
          clear,
        );
        await phase(
          '30% malformed bodies for 5 s',
          5_000,
          () => upstream.faults.set({ malformed: 0.3 }),
          clear,
        );
        await phase(
          'webhook receiver down for 10 s',
          10_000,
          () => (receiver.down = true),
          () => (receiver.down = false),
        );
        log(`fault: SIGKILL daemon ${daemons[1]!.pid}; a replacement starts`);
        await killAndReplace(daemons[1]!);
      },
    });
    // The flatness rule (under 10% after the first tenth) is the full soak's: this run lasts 84 s,
    // so its first tenth is the daemon's first 8 s, while V8 still sizes its heap and the daemon's
    // one-minute replay window fills. Here RSS growing by half would be a leak, not a warm-up (a
    // retained frame per delivery would be ~500 MB).
    assertSoak(r, [], 0.5);
  }, 240_000);
});
