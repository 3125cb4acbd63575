import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { OPERATIONS, buildRequest, type OperationSpec } from '../../src/espn/operations.js';
import { generateFinishedSummary } from '../../src/simulator/index.js';
import {
  FIXTURES_DIR,
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  listFixtures,
  loadFixture,
  describeRecorded,
} from '../support/fixtures.js';
import { NBA, TestClock, WNBA, closeAll, getJson, rosterAthleteId, start } from './helpers.js';

afterEach(closeAll);

/** Ids each league's recordings or catalog know, so every operation has something to answer. */
const KNOWN = {
  mens: { event_id: '401585607', team_id: '13' },
  womens: { event_id: '401736158', team_id: '6' },
  'mens-college': { event_id: '401706886', team_id: '150' },
  'womens-college': { event_id: '401724593', team_id: '259' },
} as const;

const paramsFor = (op: OperationSpec): Record<string, string> => {
  const params: Record<string, string> = {};
  if (op.params.includes('event_id')) params.event_id = KNOWN[op.league].event_id;
  if (op.params.includes('team_id')) params.team_id = KNOWN[op.league].team_id;
  if (op.params.includes('athlete_id')) params.athlete_id = rosterAthleteId(op.league);
  return params;
};

describeRecorded(!HAVE_FIXTURES)(
  `simulator serving recordings (${HAVE_FIXTURES ? FIXTURES_DIR : NO_FIXTURES_REASON})`,
  () => {
    it('answers every operation with 200 JSON', async () => {
      // Every operation answering is the ESPN of before: since 2026 /calendar and /athletes/{id}
      // answer 404 and a team's injuries an empty body (test/simulator/espn-2026.test.ts).
      const up = await start({ fixturesDir: FIXTURES_DIR, espnRules: 'legacy' });
      for (const op of OPERATIONS.values()) {
        const { pathAndQuery } = buildRequest(op.name, paramsFor(op));
        const res = await fetch(up.url + pathAndQuery);
        expect(res.status, op.name).toBe(200);
        expect(res.headers.get('content-type'), op.name).toMatch(/application\/json/);
        const body: unknown = JSON.parse(await res.text());
        expect(body, op.name).toBeTypeOf('object');
      }
      expect(up.requests.count()).toBe(OPERATIONS.size);
    });

    it('serves the recording whose qualifier matches the id or date, byte for byte', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      for (const f of listFixtures()) {
        const key = f.qualifier.split('_')[0];
        if (!key) continue;
        const seg = f.league === 'mens' ? NBA : WNBA;
        const path =
          f.suffix === 'summary'
            ? `${seg}/summary?event=${key}`
            : f.suffix === 'scoreboard'
              ? `${seg}/scoreboard?dates=${key}`
              : f.suffix === 'team_roster'
                ? `${seg}/teams/${key}/roster`
                : f.suffix === 'team'
                  ? `${seg}/teams/${key}`
                  : undefined;
        if (!path) continue;
        const { body } = await getJson(up.url + path);
        const candidates = listFixtures().filter(
          (g) => g.league === f.league && g.suffix === f.suffix && g.qualifier.split('_')[0] === key,
        );
        // Several recordings of one game (pre, final): the finished one is preferred, raw before roundtrip.
        const final = candidates.filter((g) => g.qualifier.includes('final'));
        const pool = final.length ? final : candidates;
        const expected = pool.find((g) => !g.qualifier.includes('roundtrip')) ?? pool[0] ?? f;
        expect(body, path).toEqual(loadFixture(`${f.league}/${expected.file.split(/[/\\]/).pop()}`));
      }
    });

    it('answers a catalog team with no recording with a payload generated for that team', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      const team = await getJson(`${up.url}${NBA}/teams/2`);
      expect(team.status).toBe(200);
      expect(team.body.team).toMatchObject({ id: '2', abbreviation: 'BOS', displayName: 'Boston Celtics' });
      const roster = await getJson(`${up.url}${WNBA}/teams/9/roster`);
      expect(roster.body.athletes.length).toBeGreaterThan(10);
    });

    it('answers an event id with no game and no recording as ESPN does: 404, not a made-up game', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      // A real game of a recorded scoreboard whose summary was never recorded.
      const scoreboard = await getJson(`${up.url}${NBA}/scoreboard?dates=20241201`);
      const unrecorded = String(scoreboard.body.events[0].id);
      expect(listFixtures().some((f) => f.qualifier.startsWith(unrecorded))).toBe(false);
      const summary = await getJson(`${up.url}${NBA}/summary?event=${unrecorded}`);
      expect(summary.status).toBe(404);
      expect(summary.body).toEqual({
        code: 404,
        message: `Error invoking GET: http://sports.core.api.espn.pvt/v2/sports/basketball/leagues/nba/events/${unrecorded}/competitions/${unrecorded}/status, status=404`,
      });
      // The recorded game is still served.
      expect((await getJson(`${up.url}${NBA}/summary?event=401585607`)).status).toBe(200);
    });

    it('falls back to a default recording for an unmatched date', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      const { body } = await getJson(`${up.url}${NBA}/scoreboard?dates=19990101`);
      expect(Array.isArray(body.events)).toBe(true);
      expect(body.events.length).toBeGreaterThan(0);
    });
  },
);

describe('simulator HTTP behaviour', () => {
  it('answers 404 JSON for an unknown path and for women’s operations ESPN does not have', async () => {
    const up = await start();
    for (const path of ['/nope', `${WNBA}/athletes/1`, '/apis/v2/sports/basketball/wnba/standings']) {
      const { status, body } = await getJson(up.url + path);
      expect(status, path).toBe(404);
      expect(body.code).toBe(404);
    }
  });

  it('generates well-formed payloads for every operation but summary without any recordings', async () => {
    // The legacy rules: every operation answers, and a past date's board is empty (the 2026 rules
    // answer 404 for some and fill past dates with made-up slates: test/simulator/espn-2026.test.ts).
    const up = await start({ espnRules: 'legacy' });
    for (const op of OPERATIONS.values()) {
      const { pathAndQuery } = buildRequest(op.name, paramsFor(op));
      const { status, body } = await getJson(up.url + pathAndQuery);
      // Without recordings or games there is no game at all: every summary is of an unknown event.
      expect(status, op.name).toBe(op.suffix === 'summary' ? 404 : 200);
      expect(body, op.name).toBeTypeOf('object');
    }
    const news = await getJson(`${up.url}${NBA}/news?limit=3`);
    expect(news.body.articles).toHaveLength(3);
    const teams = await getJson(`${up.url}${WNBA}/teams`);
    expect(teams.body.sports[0].leagues[0].teams.length).toBeGreaterThanOrEqual(12);
    const sb = await getJson(`${up.url}${NBA}/scoreboard?dates=20250101`);
    expect(sb.body).toMatchObject({ events: [], day: { date: '2025-01-01' } });
  });

  it('sends ETag, Last-Modified and Cache-Control, and answers a matching If-None-Match with 304', async () => {
    const up = await start();
    const first = await fetch(`${up.url}${NBA}/teams/13`);
    await first.text();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('last-modified')).toMatch(/GMT$/);
    expect(first.headers.get('cache-control')).toMatch(/^max-age=\d+$/);
    const again = await fetch(`${up.url}${NBA}/teams/13`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const other = await fetch(`${up.url}${NBA}/teams/13`, { headers: { 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
    await other.text();
  });

  it('logs each request with its path, query, headers and status', async () => {
    const up = await start();
    await (
      await fetch(`${up.url}${NBA}/scoreboard?dates=20250101`, {
        headers: { 'user-agent': 'courtside-test/1 (+https://example.org)' },
      })
    ).text();
    await (await fetch(`${up.url}/missing`)).text();
    const [a, b] = up.requests.entries;
    expect(a).toMatchObject({
      method: 'GET',
      path: `${NBA}/scoreboard`,
      query: { dates: '20250101' },
      status: 200,
    });
    expect(a?.headers['user-agent']).toBe('courtside-test/1 (+https://example.org)');
    expect(b?.status).toBe(404);
    expect(up.requests.count((r) => r.path.endsWith('/scoreboard'))).toBe(1);
    up.requests.clear();
    expect(up.requests.count()).toBe(0);
  });

  it('closes idempotently', async () => {
    const up = await start();
    await Promise.all([up.close(), up.close()]);
    await up.close();
    await expect(fetch(`${up.url}${NBA}/news`)).rejects.toThrow();
  });
});

describe('ids the simulator has nothing for', () => {
  const CORE = 'http://sports.core.api.espn.pvt/v2/sports/basketball/leagues';

  it('answers the summary of an event with no game or recording with ESPN’s 404, whatever the id', async () => {
    const up = await start({ simulate: { games: 2, seed: 5 }, clock: new TestClock() });
    for (const game of up.games) {
      const path = `${game.league === 'mens' ? NBA : WNBA}/summary?event=${game.id}`;
      const served = await getJson(up.url + path);
      expect(served.status, path).toBe(200);
      expect(served.body.header.id).toBe(game.id);
    }
    const unknown: [string, string, string][] = [
      // A real game's id, a synthetic-looking id of no served game, garbage, and no id at all.
      [`${NBA}/summary?event=401585607`, 'nba', '401585607'],
      [`${WNBA}/summary?event=900005999`, 'wnba', '900005999'],
      [`${NBA}/summary?event=abc`, 'nba', 'abc'],
      [`${NBA}/summary?event=`, 'nba', ''],
      [`${NBA}/summary`, 'nba', ''],
    ];
    for (const [path, segment, id] of unknown) {
      const { status, body, headers } = await getJson(up.url + path);
      expect(status, path).toBe(404);
      expect(headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(body, path).toEqual({
        code: 404,
        message: `Error invoking GET: ${CORE}/${segment}/events/${id}/competitions/${id}/status, status=404`,
      });
      // An error is not cacheable: no validators to send back.
      expect(headers.get('etag'), path).toBeNull();
    }
    expect(up.requests.count((r) => r.status === 404)).toBe(unknown.length);
  });

  it('refuses a team the league does not have with ESPN’s 400 on every team operation', async () => {
    const up = await start();
    const teamOps = [...OPERATIONS.values()].filter((op) => op.pathParams.includes('team_id'));
    expect(teamOps.filter((op) => op.league === 'mens' || op.league === 'womens')).toHaveLength(20);
    for (const op of teamOps) {
      // 13 is the Lakers' id in the men's league and no team's in the women's.
      for (const teamId of ['99999', ...(op.league === 'womens' ? ['13'] : [])]) {
        const { pathAndQuery } = buildRequest(op.name, { team_id: teamId });
        const { status, body } = await getJson(up.url + pathAndQuery);
        expect(status, `${op.name} ${teamId}`).toBe(400);
        expect(body).toEqual({ code: 400, message: 'Failed to get league teams summary' });
      }
      const { pathAndQuery } = buildRequest(op.name, { team_id: KNOWN[op.league].team_id });
      expect((await getJson(up.url + pathAndQuery)).status, op.name).toBe(200);
    }
    // ESPN accepts a team's abbreviation in place of its id.
    const lakers = await getJson(`${up.url}${NBA}/teams/lal`);
    expect(lakers.body.team).toMatchObject({ id: '13', abbreviation: 'LAL' });
  });

  it('answers the athlete operations for its own athletes and ESPN’s 404 for any other id', async () => {
    // Legacy rules: since 2026 /athletes/{id} answers 404 for every id (test/simulator/espn-2026.test.ts).
    const up = await start({ espnRules: 'legacy' });
    const own = rosterAthleteId('mens', '2');
    for (const suffix of ['', '/bio', '/news']) {
      const known = await getJson(`${up.url}${NBA}/athletes/${own}${suffix}`);
      expect(known.status, suffix).toBe(200);
      const unknown = await getJson(`${up.url}${NBA}/athletes/1966${suffix}`);
      expect(unknown.status, suffix).toBe(404);
      expect(unknown.body).toEqual({
        code: 404,
        message: `Error invoking GET: ${CORE}/nba/athletes/1966, status=404`,
      });
    }
    const info = await getJson(`${up.url}${NBA}/athletes/${own}`);
    expect(info.body.athlete).toMatchObject({ id: own, team: { id: '2', abbreviation: 'BOS' } });
  });

  it('gives synthetic games ids starting with 9, marks them, and lists only such ids in schedules', async () => {
    const up = await start({ simulate: { games: 3, seed: 42 }, clock: new TestClock() });
    expect(up.games.map((g) => g.id)).toEqual(['900042000', '900042001', '900042002']);
    expect(up.games.every((g) => g.synthetic)).toBe(true);
    // A generated schedule lists made-up games: recognisable ids, and no summary behind them.
    const schedule = await getJson(`${up.url}${NBA}/teams/13/schedule`);
    const ids: string[] = schedule.body.events.map((e: { id: string }) => e.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(id).toMatch(/^9\d{8}$/);
      expect((await getJson(`${up.url}${NBA}/summary?event=${id}`)).status).toBe(404);
    }
  });

  it('marks a replayed game as not synthetic and keeps its id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-sim-replay-'));
    try {
      const file = join(dir, 'game.json');
      writeFileSync(file, JSON.stringify(generateFinishedSummary('womens', '900000077')));
      const up = await start({ replay: [file], clock: new TestClock() });
      expect(up.games.map((g) => [g.league, g.id, g.synthetic])).toEqual([['womens', '900000077', false]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a fixtures folder that is missing, a file, or holds no recordings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-sim-fixtures-'));
    try {
      const file = join(dir, 'note.txt');
      writeFileSync(file, 'not a folder');
      mkdirSync(join(dir, 'mens'));
      writeFileSync(join(dir, 'mens', 'README.md'), 'no recordings here');
      const cases: [string, RegExp][] = [
        [
          join(dir, 'missing'),
          /^fixturesDir: ".*missing" does not exist; expected a folder of recorded payloads/,
        ],
        [file, /^fixturesDir: ".*note\.txt" is not a folder/],
        [dir, /^fixturesDir: ".*" holds no recordings; expected .*<league>\/<suffix>\[__qualifier\]\.json/],
        ['', /^fixturesDir: "" does not exist/],
      ];
      for (const [fixturesDir, message] of cases) {
        const error = await start({ fixturesDir }).catch((e: unknown) => e);
        expect(error, fixturesDir).toBeInstanceOf(InvalidOptionsError);
        expect((error as Error).message).toMatch(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
