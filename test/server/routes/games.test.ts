import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspnClient } from '../../../src/espn-client/client.js';
import type { UpstreamHealth } from '../../../src/server/routes/index.js';

import { fixedSnapshots, snapshot, startApi, type ApiHarness } from './helpers.js';

const GAMES = [
  snapshot('mens', '401', 'in', { home: 10, away: 8 }),
  snapshot('mens', '402', 'post', { home: 100, away: 98 }),
  snapshot('womens', '501', 'in', { home: 3, away: 0 }),
  snapshot('womens', '502', 'pre'),
];

describe(`GET /v1/games`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ snapshots: fixedSnapshots(GAMES) });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists the games in progress, and only those', async () => {
    const res = await fetch(`${api.url}/v1/games/live`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const body = (await res.json()) as { games: Array<{ league: string; gameId: string; score: unknown }> };
    expect(body.games.map((g) => `${g.league}/${g.gameId}`)).toEqual(['mens/401', 'womens/501']);
    expect(body.games[0]?.score).toEqual({ home: 10, away: 8 });
  });

  it("carries the polls' view of the upstream beside the games", async () => {
    const upstreamOf = async () =>
      ((await (await fetch(`${api.url}/v1/games/live`)).json()) as { upstream: UpstreamHealth }).upstream;
    expect(await upstreamOf()).toEqual({ ok: null, since: null, lastError: null });

    // A poll that cannot reach its upstream (nothing listens on port 1).
    const offline = createEspnClient({
      upstream: 'http://127.0.0.1:1',
      retries: 0,
      timeoutMs: 2_000,
      cache: false,
    });
    await expect(api.tracker.wrap(offline, { health: true }).call('mens_scoreboard')).rejects.toThrow();
    const down = await upstreamOf();
    expect(down.ok).toBe(false);
    expect(down.since).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(down.lastError).toMatchObject({ code: 'UPSTREAM_NETWORK' });
    expect(down.lastError?.message).toContain('127.0.0.1:1');

    // An /v1/ops call that fails is the caller's business, not the polls': health stays as it was.
    api.upstream.faults.failNext(1, { status: 500 });
    expect((await fetch(`${api.url}/v1/ops/mens_news`)).status).toBe(502);
    expect(await upstreamOf()).toEqual(down);

    await api.tracker.wrap(api.client, { health: true }).call('mens_scoreboard', { dates: '20241201' });
    const up = await upstreamOf();
    expect(up.ok).toBe(true);
    expect(Date.parse(up.since ?? '')).toBeGreaterThanOrEqual(Date.parse(down.since ?? ''));
    // The last failure stays readable after the recovery.
    expect(up.lastError).toEqual(down.lastError);
    await offline.close();
  });

  it('answers one game by league and id, with an ETag', async () => {
    const res = await fetch(`${api.url}/v1/games/mens/402`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { state: string; score: unknown };
    expect(body.state).toBe('post');
    expect(body.score).toEqual({ home: 100, away: 98 });
    const again = await fetch(`${api.url}/v1/games/mens/402`, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('answers 404 for a game it has no state for, 400 for a bad league or id', async () => {
    const missing = await fetch(`${api.url}/v1/games/womens/401`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_GAME');
    const badLeague = await fetch(`${api.url}/v1/games/college/401`);
    expect(badLeague.status).toBe(400);
    expect(((await badLeague.json()) as { error: { message: string } }).error.message).toContain('college');
    expect((await fetch(`${api.url}/v1/games/mens/4%2001`)).status).toBe(400);
    expect((await fetch(`${api.url}/v1/games/mens`)).status).toBe(404);
  });
});

/** A live college game between two teams of the given conferences, the away team ranked `rank`. */
function collegeGame(gameId: string, home: string, away: string, rank: number | null = null) {
  const g = snapshot('mens-college', gameId, 'in', { home: 50, away: 48 });
  g.teams.home = { ...g.teams.home, conference: { id: home, name: null }, rank: null };
  g.teams.away = { ...g.teams.away, conference: { id: away, name: null }, rank };
  g.periodLabel = '2nd Half';
  g.clock = '4:12';
  return g;
}

describe('GET /v1/games/live filters', () => {
  let api: ApiHarness;
  const FILTERED = [
    ...GAMES,
    collegeGame('701', '2', '8', 5),
    collegeGame('702', '23', '2'),
    collegeGame('703', '23', '23'),
  ];
  beforeAll(async () => {
    api = await startApi({ snapshots: fixedSnapshots(FILTERED) });
  });
  afterAll(async () => {
    await api?.close();
  });
  const ids = async (query: string) => {
    const res = await fetch(`${api.url}/v1/games/live${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { games: Array<{ gameId: string }> }).games.map((g) => g.gameId);
  };

  it('narrows by league, conference (either team) and ranked, together', async () => {
    // Ordered by league name, then id.
    expect(await ids('')).toEqual(['401', '701', '702', '703', '501']);
    expect(await ids('?league=mens-college')).toEqual(['701', '702', '703']);
    expect(await ids('?league=mens,womens')).toEqual(['401', '501']);
    expect(await ids('?league=mens&league=womens')).toEqual(['401', '501']);
    expect(await ids('?conference=2')).toEqual(['701', '702']);
    expect(await ids('?conference=8,23')).toEqual(['701', '702', '703']);
    expect(await ids('?ranked=true')).toEqual(['701']);
    expect(await ids('?ranked=false')).toHaveLength(5);
    expect(await ids('?conference=23&ranked=1')).toEqual([]);
    expect(await ids('?league=mens&conference=2')).toEqual([]);
  });

  it('answers one small object per game with view=compact', async () => {
    const res = await fetch(`${api.url}/v1/games/live?view=compact&ranked=true`);
    const body = (await res.json()) as { games: unknown[]; upstream: unknown };
    expect(body.games).toEqual([
      {
        id: '701',
        league: 'mens-college',
        state: 'in',
        away: { abbreviation: 'AWY', rank: 5, score: 48 },
        home: { abbreviation: 'HOM', rank: null, score: 50 },
        period: '2nd Half',
        clock: '4:12',
        feed: null,
      },
    ]);
    expect(body.upstream).toBeDefined();
  });

  it('refuses a bad value with 400 INVALID_PARAMS naming the parameter and its form', async () => {
    for (const [query, words] of [
      ['?league=nba', ['league "nba"', 'mens, womens, mens-college, womens-college']],
      ['?league=mens,college', ['league "college"']],
      ['?conference=ACC', ['conference "ACC"', 'digits']],
      ['?ranked=yes', ['ranked "yes"', 'expected true']],
      ['?ranked=true&ranked=false', ['ranked is given 2 times']],
      ['?view=tiny', ['view "tiny"', 'full or compact']],
    ] as const) {
      const res = await fetch(`${api.url}/v1/games/live${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_PARAMS');
      for (const word of words) expect(body.error.message, query).toContain(word);
    }
  });
});
