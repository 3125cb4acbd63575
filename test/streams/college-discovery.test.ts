import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import { createEspnClient } from '../../src/espn-client/client.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream } from '../../src/simulator/index.js';
import { createEngine } from '../../streams/engine.js';
import { waitFor } from '../support/wait-for.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const BASKETBALL = '/apis/site/v2/sports/basketball';

describe('live discovery of the college leagues', () => {
  it('asks college scoreboards for all of Division I with a large limit, the pro boards as before', async () => {
    const sim = await startUpstream({ logger: silentLogger });
    cleanup.push(() => sim.close());
    const client = createEspnClient({ upstream: sim.url, timeoutMs: 2_000, retries: 0 });
    cleanup.push(() => client.close());
    const bus = createMemoryBus();
    cleanup.push(() => bus.close());
    const engine = createEngine({
      client,
      bus,
      leagues: ['mens', 'mens-college', 'womens-college'],
      logger: silentLogger,
    });
    cleanup.push(() => engine.close());
    engine.start();

    const boards = () => sim.requests.entries.filter((r) => r.path.endsWith('/scoreboard'));
    const segments = ['nba', 'mens-college-basketball', 'womens-college-basketball'];
    const asked = () => new Set(boards().map((r) => r.path));
    await waitFor(
      () => segments.every((s) => asked().has(`${BASKETBALL}/${s}/scoreboard`)),
      10_000,
      'a scoreboard request per league',
    );
    // Every board read, today's and (after Eastern midnight) the previous day's, carries them.
    for (const request of boards()) {
      const { dates, ...rest } = request.query;
      if (dates !== undefined) expect(dates).toMatch(/^\d{8}$/);
      const college = request.path.includes('college-basketball');
      expect(rest, request.path).toEqual(college ? { groups: '50', limit: '500' } : {});
    }
  });
});
