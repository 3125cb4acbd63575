import { afterAll, describe, it } from 'vitest';
import { getTestRedis } from '../helpers/redis.js';
import { assertSoak } from './harness/assert-soak.js';
import { runSoak, sleep } from './harness/soak.js';

/**
 * The short soak (runs in `npm test`): 4 games at 150x speed, 150 WebSocket clients, two daemons
 * on one Redis, an alert worker and a webhook receiver; the upstream fails every request for 10 s,
 * then one daemon is SIGKILLed. The full soak is soak.long.test.ts.
 */
const redis = await getTestRedis();

describe.skipIf(!redis)('short soak', () => {
  afterAll(async () => redis?.cleanup());

  it('loses nothing and duplicates nothing through an upstream outage and a daemon kill', async () => {
    const r = await runSoak({
      redisUrl: redis!.url,
      prefix: redis!.prefix,
      games: 4,
      speed: 150,
      // 10 game minutes apart: 4 s of wall time at 150x.
      staggerMs: 10 * 60_000,
      clients: 150,
      seed: 8,
      async faults({ upstream, daemons, log }) {
        await sleep(15_000);
        log('fault: upstream fails every request for 10 s');
        upstream.faults.set({ error: 1 });
        await sleep(10_000);
        upstream.faults.set({});
        await sleep(10_000);
        const victim = daemons[1]!;
        log(`fault: SIGKILL daemon ${victim.pid}`);
        victim.killed = true;
        victim.child.kill('SIGKILL');
      },
    });
    assertSoak(r);
  }, 240_000);
});
