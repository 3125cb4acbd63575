import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, HAVE_FIXTURES } from '../support/fixtures.js';
import { TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const NCAAW = '/apis/site/v2/sports/basketball/womens-college-basketball';
const NCAAM = '/apis/site/v2/sports/basketball/mens-college-basketball';

describe('college scoreboards of the simulator', () => {
  it('list ranked synthetic games with curatedRank and conferenceId,', async () => {
    const clock = new TestClock();
    const sim = await start({ simulate: { games: 12, seed: 5, leagues: ['mens-college'] }, clock });
    const { body } = await getJson(`${sim.url}${NCAAM}/scoreboard?groups=50&limit=50`);
    expect(body.events).toHaveLength(12);
    for (const event of body.events) {
      const header = sim.games.find((g) => g.id === event.id)!.final.header as any;
      for (const c of event.competitions[0].competitors) {
        const h = header.competitions[0].competitors.find((x: any) => x.homeAway === c.homeAway);
        expect(c.curatedRank.current).toBe(h.rank ?? 99);
        expect(c.team.conferenceId).toBe(h.team.groups.id);
      }
    }
    // Without groups, only the featured games: those with a ranked team (some are not).
    const ranked = sim.games
      .filter((g) =>
        (g.final.header as any).competitions[0].competitors.some((c: any) => c.rank !== undefined),
      )
      .map((g) => g.id);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.length).toBeLessThan(12);
    const featured = (await getJson(`${sim.url}${NCAAM}/scoreboard`)).body.events.map((e: any) => e.id);
    expect(featured.sort()).toEqual(ranked.sort());
  });

  it.skipIf(!HAVE_FIXTURES)(
    'lists an unranked game only on the Division I board or its conference’s, 99 for unranked',
    async () => {
      const file = join(FIXTURES_DIR, 'womens-college', 'summary__401724593_final.json');
      const sim = await start({ replay: [file], clock: new TestClock() });
      expect(sim.games.map((g) => g.league)).toEqual(['womens-college']);
      const board = async (query: string): Promise<any> =>
        (await getJson(`${sim.url}${NCAAW}/scoreboard${query}`)).body;
      expect((await board('')).events).toHaveLength(0);
      expect((await board('?groups=4')).events).toHaveLength(0);
      const d1 = await board('?groups=50&limit=300');
      expect(d1.events.map((e: any) => e.id)).toEqual(['401724593']);
      const competitors = d1.events[0].competitions[0].competitors;
      expect(competitors.map((c: any) => [c.curatedRank.current, c.team.conferenceId])).toEqual([
        [99, '2'],
        [99, '2'],
      ]);
      expect((await board('?groups=2')).events).toHaveLength(1);
      expect(d1.events[0].competitions[0].format.regulation.periods).toBe(4);
    },
  );
});
