import { afterEach, describe, expect, it } from 'vitest';
import { createEspnClient } from '../../src/espn-client/client.js';
import { createFastcastClient } from '../../src/espn/fastcast-client.js';
import { gameTopic } from '../../src/espn/fastcast-wire.js';
import { startUpstream } from '../../src/simulator/index.js';
import { testFastcastOptions } from '../support/fastcast-test-options.js';
import { VirtualTime } from '../support/virtual-time.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

describe('FastCast subscription pacing, against the simulator', () => {
  it('downloads the checkpoints of a slate subscribed at once no faster than the pacing allows', async () => {
    const clock = { ms: Date.UTC(2025, 0, 15, 0, 10), now: (): number => clock.ms };
    const GAMES = 24;
    const up = await startUpstream({
      clock,
      simulate: { games: GAMES, seed: 5 },
      // The client's heartbeat runs in virtual time, faster than the server's keep-alives come.
      fastcast: { hbiSeconds: 30 },
    });
    open.push(up);
    // Every game of the slate under way.
    clock.ms += 6 * 3_600_000;
    const http = createEspnClient({ upstream: up.url, timeoutMs: 5000, retries: 1, retryBaseMs: 10 });
    open.push(http);
    // The pacer's waits run in virtual time: the checkpoints' times are read on it.
    const time = new VirtualTime();
    const fetchedAt: number[] = [];
    const delivered = new Set<string>();
    const pacing = { ratePerSecond: 20, burst: 4 };
    const client = createFastcastClient(
      testFastcastOptions(up.fastcastUrl as string, {
        timeoutMs: 5000,
        subscribeTimeoutMs: 30_000,
        subscribePacing: pacing,
        scheduler: time,
        fetchDocument: (request) => {
          fetchedAt.push(time.now());
          return http.fetchDocument(request);
        },
      }),
      { document: (tc) => void delivered.add(tc), lost: () => undefined },
    );
    open.unshift(client);
    const topics = up.games.map((g) => gameTopic(g.league, g.id));
    const start = time.now();
    for (const t of topics) client.subscribe(t);
    await time.until(() => delivered.size === GAMES, 'every topic delivered');
    expect(fetchedAt.length).toBeGreaterThanOrEqual(GAMES);
    // A checkpoint follows its subscription, which the bucket lets through at `burst`, then
    // `ratePerSecond`: by any moment, no more than that many, however the machine is loaded.
    for (const at of fetchedAt) {
      const allowed = pacing.burst + ((at - start) * pacing.ratePerSecond) / 1000;
      expect(fetchedAt.filter((t) => t <= at).length).toBeLessThanOrEqual(Math.floor(allowed) + 1);
    }
    // The last subscription waited its turn: (24 - 4) / 20 s after the first.
    expect(Math.max(...fetchedAt) - start).toBeGreaterThanOrEqual(
      ((GAMES - pacing.burst) / pacing.ratePerSecond) * 1000 - 60,
    );
  });
});
