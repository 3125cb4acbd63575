import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS, buildRequest } from '../../src/espn/operations.js';
import {
  FIXTURES_DIR,
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  listFixtures,
  loadFixture,
} from '../helpers/fixtures.js';
import { NBA, WNBA, closeAll, getJson, start } from './helpers.js';

afterEach(closeAll);

const paramsFor = (params: readonly string[]): Record<string, string> =>
  Object.fromEntries(
    params
      .filter((p) => p === 'team_id' || p === 'athlete_id')
      .map((p) => [p, p === 'team_id' ? '13' : '1966']),
  );

describe.skipIf(!HAVE_FIXTURES)(
  `simulator serving recordings (${HAVE_FIXTURES ? FIXTURES_DIR : NO_FIXTURES_REASON})`,
  () => {
    it('answers every one of the 44 operations with 200 JSON', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      expect(OPERATIONS.size).toBe(44);
      for (const op of OPERATIONS.values()) {
        const { pathAndQuery } = buildRequest(op.name, paramsFor(op.pathParams));
        const res = await fetch(up.url + pathAndQuery);
        expect(res.status, op.name).toBe(200);
        expect(res.headers.get('content-type'), op.name).toMatch(/application\/json/);
        const body: unknown = JSON.parse(await res.text());
        expect(body, op.name).toBeTypeOf('object');
      }
      expect(up.requests.count()).toBe(44);
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

    it('answers an id with no recording with a generated payload for that id', async () => {
      const up = await start({ fixturesDir: FIXTURES_DIR });
      const team = await getJson(`${up.url}${NBA}/teams/2`);
      expect(team.status).toBe(200);
      expect(team.body.team).toMatchObject({ id: '2', abbreviation: 'BOS', displayName: 'Boston Celtics' });
      const roster = await getJson(`${up.url}${WNBA}/teams/9/roster`);
      expect(roster.body.athletes.length).toBeGreaterThan(10);
      const summary = await getJson(`${up.url}${NBA}/summary?event=123456`);
      expect(summary.body.header.id).toBe('123456');
      expect(summary.body.plays.length).toBeGreaterThan(300);
      expect(summary.body.header.competitions[0].status.type.state).toBe('post');
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

  it('generates well-formed payloads for every operation without any recordings', async () => {
    const up = await start();
    for (const op of OPERATIONS.values()) {
      const { pathAndQuery } = buildRequest(op.name, paramsFor(op.pathParams));
      const { status, body } = await getJson(up.url + pathAndQuery);
      expect(status, op.name).toBe(200);
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
        headers: { 'user-agent': 'courtside-test/1' },
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
    expect(a?.headers['user-agent']).toBe('courtside-test/1');
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
