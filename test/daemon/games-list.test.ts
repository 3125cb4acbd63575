import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import type { CompactGame } from '../../src/server/routes/games-query.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { waitFor } from '../support/wait-for.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * A Saturday's many games on one daemon: `/v1/games/live` and the home page list them all,
 * grouped by league, and the league, conference and ranked filters narrow both.
 */
interface Game {
  league: string;
  gameId: string;
  teams: Record<'home' | 'away', { rank?: number | null; conference?: { id: string } | null }>;
}

const SLATE = [
  ['mens-college', 24],
  ['womens-college', 10],
  ['mens', 6],
] as const;
const TOTAL = SLATE.reduce((n, [, c]) => n + c, 0);

const live = async <T = Game>(url: string, query = ''): Promise<T[]> => {
  const res = await fetch(`${url}/v1/games/live${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { games: T[] }).games;
};

describe('a slate of live games on one daemon', () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    await upstream?.close();
    daemon = upstream = undefined;
  });

  it('lists every game, by league on the home page, and the filters narrow both', async () => {
    // The simulator's clock stands still once every game of the slate has tipped off and none
    // has ended, so all of them are live for as long as the test takes. Its tip-offs span about two
    // hours from noon Eastern (easternNoonToday).
    const clock = { ms: easternNoonToday() };
    upstream = await startUpstream({
      simulate: { games: 0, seed: 3, perLeague: [...SLATE] },
      clock: { now: () => clock.ms },
      logger: silentLogger,
    });
    const lastTip = Math.max(...upstream.games.map((g) => g.startAt));
    const firstEnd = Math.min(...upstream.games.map((g) => g.endAt));
    expect(lastTip + 60_000).toBeLessThan(firstEnd);
    clock.ms = lastTip + 60_000;
    daemon = createDaemon(
      testDaemonConfig(upstream.url, { leagues: 'mens,mens-college,womens-college', summaryInterval: 5_000 }),
      { logger: silentLogger },
    );
    await daemon.start();
    const url = daemon.url;
    let seen = 0;
    await waitFor(
      async () => (seen = (await live(url)).length) === TOTAL,
      60_000,
      () => `${TOTAL} live games (${seen} so far)`,
    );
    const games = await live(url);
    const count = (keep: (g: Game) => boolean) => games.filter(keep).length;

    // By league: one or several.
    expect(await live(url, '?league=womens-college')).toHaveLength(10);
    expect((await live(url, '?league=mens,womens-college')).map((g) => g.league).sort()).toEqual(
      games
        .filter((g) => g.league !== 'mens-college')
        .map((g) => g.league)
        .sort(),
    );
    // By conference: a game whose either team is in it.
    const conference = games
      .flatMap((g) => [g.teams.home.conference?.id, g.teams.away.conference?.id])
      .find((c) => c);
    expect(conference).toBeDefined();
    const inConference = (g: Game) =>
      g.teams.home.conference?.id === conference || g.teams.away.conference?.id === conference;
    const byConference = await live(url, `?conference=${conference}`);
    expect(byConference.length).toBe(count(inConference));
    expect(byConference.length).toBeLessThan(TOTAL);
    // Ranked: a game with a poll rank on either side.
    const isRanked = (g: Game) => g.teams.home.rank != null || g.teams.away.rank != null;
    const ranked = await live(url, '?ranked=true');
    expect(ranked.length).toBe(count(isRanked));
    expect(ranked.every(isRanked)).toBe(true);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.length).toBeLessThan(TOTAL);

    // The compact form: one small object per game.
    const compact = await live<CompactGame>(url, '?view=compact&league=mens');
    expect(compact).toHaveLength(6);
    expect(Object.keys(compact[0] ?? {}).sort()).toEqual(
      ['id', 'league', 'state', 'away', 'home', 'period', 'clock', 'feed'].sort(),
    );
    expect(compact[0]?.state).toBe('in');
    expect(compact[0]?.home.abbreviation).toMatch(/^[A-Z0-9]+$/);
    expect(typeof compact[0]?.home.score).toBe('number');

    // The home page: every game, under its league's heading, and the same filters.
    const page = async (query = '') => {
      const res = await fetch(`${url}/${query}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const overlays = (html: string) => (html.match(/href="\/overlay\/[^"/]+\/[^"/]+"/g) ?? []).length;
    const all = await page();
    expect(overlays(all)).toBe(TOTAL);
    for (const [league, n] of SLATE) {
      const section = all.split(`<h3 id="league-${league}">`)[1]?.split(/<h[23]/)[0] ?? '';
      expect((section.match(/href="\/overlay\//g) ?? []).length, league).toBe(n * 2);
    }
    expect(all).toContain('href="/?league=womens-college"');
    expect(all).toContain('href="/?ranked=true"');
    expect(all).toContain(`href="/?conference=${conference}"`);
    // Kept: the banner, the endpoints and the docs.
    expect(all).toContain('<h2>Endpoints</h2>');
    expect(all).toContain('<h2>Docs</h2>');
    expect(all).toMatch(/class="banner /);

    const womens = await page('?league=womens-college');
    expect(overlays(womens)).toBe(10);
    expect(womens).not.toContain('<h3 id="league-mens-college">');
    expect(overlays(await page(`?conference=${conference}`))).toBe(byConference.length);
    expect(overlays(await page('?ranked=true'))).toBe(ranked.length);
    expect(overlays(await page(`?league=mens-college&ranked=1`))).toBe(
      count((g) => g.league === 'mens-college' && isRanked(g)),
    );
    // A filter link keeps the others.
    expect(await page('?ranked=true')).toContain('href="/?league=mens-college&amp;ranked=true"');
  }, 90_000);
});
