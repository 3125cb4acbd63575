import { tableFromIPC, Type } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, OPERATIONS, type OperationSpec } from '../../../src/espn/operations.js';
import { columnsFor, SUMMARY_TABLE_NAMES } from '../../../src/tables/index.js';

import { HAVE_FIXTURES, describeRecorded } from '../../support/fixtures.js';
import { EVENT_IDS, paramsFor, query, startApi, type ApiHarness } from './helpers.js';

const ALL = [...OPERATIONS.values()];

describe(`GET /v1/ops/<operation>`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });

  it('knows the 44 operations of the professional leagues, and the college ones', () => {
    expect(ALL.filter((op) => op.league === 'mens' || op.league === 'womens')).toHaveLength(44);
    expect(ALL.some((op) => op.name === 'mens_college_summary')).toBe(true);
  });

  // Operations ESPN answers with nothing since 2026-09 (the simulator plays that ESPN): each has
  // its own test below.
  const ANSWERING = ALL.filter((op) => !['calendar', 'player_info', 'team_injuries'].includes(op.suffix));

  async function answersRaw(op: OperationSpec): Promise<void> {
    const params = paramsFor(op);
    const res = await get(`/v1/ops/${op.name}${query({ ...params, format: 'raw' })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${Math.floor(op.ttlMs / 1000)}`);
    const body: unknown = await res.json();
    const direct = await fetch(`${api.upstream.url}${buildRequest(op.name, params).pathAndQuery}`);
    expect(direct.status).toBe(200);
    expect(body).toEqual(await direct.json());
  }

  async function answersRows(op: OperationSpec): Promise<void> {
    const res = await get(`/v1/ops/${op.name}${query(paramsFor(op))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const body: unknown = await res.json();
    if (op.result === 'summary') {
      expect(Object.keys(body as object).sort()).toEqual([...SUMMARY_TABLE_NAMES].sort());
      const plays = (body as Record<string, unknown[]>).plays ?? [];
      expect(plays.length).toBeGreaterThan(0);
      return;
    }
    expect(Array.isArray(body)).toBe(true);
    const rows = body as Array<Record<string, unknown>>;
    const columns = columnsFor(op.name);
    if (columns) for (const row of rows) expect(Object.keys(row)).toEqual([...columns]);
    else for (const row of rows) expect(typeof row).toBe('object');
  }

  // A game's summary needs a recorded game (the simulator serves its synthetic games only while
  // it plays them); every other operation is answered by the simulator's generated payloads.
  const isSummary = (op: OperationSpec) => op.result === 'summary';
  const byName = (ops: OperationSpec[]) => ops.map((op) => [op.name, op] as const);

  it.each(byName(ANSWERING.filter((op) => !isSummary(op))))(
    '%s answers raw: the upstream JSON as sent',
    (_name, op) => answersRaw(op),
  );

  it.each(byName(ALL.filter((op) => op.suffix !== 'player_info' && !isSummary(op))))(
    '%s answers json: rows with the fixed columns',
    (_name, op) => answersRows(op),
  );

  describeRecorded(!HAVE_FIXTURES)('summaries of recorded games', () => {
    it.each(byName(ALL.filter(isSummary)))('%s answers raw: the upstream JSON as sent', (_name, op) =>
      answersRaw(op),
    );

    it.each(byName(ALL.filter(isSummary)))('%s answers json: rows with the fixed columns', (_name, op) =>
      answersRows(op),
    );

    it('answers a summary table in json, csv and arrow with the spec types', async () => {
      const base = `/v1/ops/mens_summary?event_id=${EVENT_IDS.mens}&table=plays`;
      const json = (await (await get(base)).json()) as Array<Record<string, unknown>>;
      expect(json.length).toBeGreaterThan(100);
      expect(Object.keys(json[0] ?? {})).toEqual([...(columnsFor('mens_summary', 'plays') ?? [])]);

      const csvRes = await get(`${base}&format=csv`);
      expect(csvRes.status).toBe(200);
      expect(csvRes.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const csv = await csvRes.text();
      const [header, ...lines] = csv.trimEnd().split(/\r?\n/);
      expect(header).toBe((columnsFor('mens_summary', 'plays') ?? []).join(','));
      expect(lines.length).toBeGreaterThanOrEqual(json.length);

      const arrowRes = await get(`${base}&format=arrow`);
      expect(arrowRes.status).toBe(200);
      expect(arrowRes.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
      const table = tableFromIPC(new Uint8Array(await arrowRes.arrayBuffer()));
      expect(table.numRows).toBe(json.length);
      const type = (name: string) => table.schema.fields.find((f) => f.name === name)?.type.typeId;
      expect(type('id')).toBe(Type.Utf8);
      expect(type('away_score')).toBe(Type.Int);
      expect(type('scoring_play')).toBe(Type.Bool);
      expect(table.getChild('id')?.get(0)).toBe(json[0]?.id);
    });

    it('answers json for a summary with table= as that one table', async () => {
      const res = await get(`/v1/ops/womens_summary?event_id=${EVENT_IDS.womens}&table=winprobability`);
      expect(res.status).toBe(200);
      const rows = (await res.json()) as Array<Record<string, unknown>>;
      expect(Object.keys(rows[0] ?? {})).toEqual([...(columnsFor('womens_summary', 'winprobability') ?? [])]);
    });
  });

  it.each(['mens', 'womens'] as const)(
    "%s_calendar: ESPN's 404 answered from the scoreboard's leagues[0].calendar, saying so",
    async (league) => {
      const res = await get(`/v1/ops/${league}_calendar?format=raw`);
      expect(res.status).toBe(200);
      expect(res.headers.get('courtside-source')).toBe('scoreboard-calendar');
      expect(res.headers.get('courtside-notice')).toMatch(/^calendar-from-scoreboard; ESPN answered 404/);
      const body = (await res.json()) as { calendar: unknown[] };
      const board = (await (
        await fetch(`${api.upstream.url}${buildRequest(`${league}_scoreboard`).pathAndQuery}`)
      ).json()) as { leagues: [{ calendar: unknown[] }] };
      expect(body.calendar.length).toBeGreaterThan(100);
      expect(body.calendar).toEqual(board.leagues[0].calendar);
      const rows = (await (await get(`/v1/ops/${league}_calendar`)).json()) as { date: string }[];
      expect(rows.map((r) => r.date)).toEqual(body.calendar);
    },
  );

  it.each(['mens', 'womens'] as const)(
    '%s_team_injuries: an empty body is an empty list, saying so',
    async (league) => {
      const op = OPERATIONS.get(`${league}_team_injuries`);
      if (!op) throw new Error('no team_injuries');
      const direct = await fetch(`${api.upstream.url}${buildRequest(op.name, paramsFor(op)).pathAndQuery}`);
      expect(direct.status).toBe(200);
      expect(await direct.text()).toBe('');
      const raw = await get(`/v1/ops/${op.name}${query({ ...paramsFor(op), format: 'raw' })}`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('courtside-source')).toBe('empty-body');
      expect(raw.headers.get('courtside-notice')).toMatch(/^empty-body; ESPN answered .* empty body/);
      expect(await raw.json()).toEqual({});
      const rows = await get(`/v1/ops/${op.name}${query(paramsFor(op))}`);
      expect(rows.status).toBe(200);
      expect(await rows.json()).toEqual([]);
    },
  );

  it("mens_player_info: ESPN's 404 is UPSTREAM_NOT_FOUND naming the address", async () => {
    const op = OPERATIONS.get('mens_player_info');
    if (!op) throw new Error('no player_info');
    for (const format of ['raw', 'json']) {
      const res = await get(`/v1/ops/${op.name}${query({ ...paramsFor(op), format })}`);
      expect(res.status).toBe(404);
      const { error } = (await res.json()) as {
        error: { code: string; message: string; upstreamStatus: number };
      };
      expect(error.code).toBe('UPSTREAM_NOT_FOUND');
      expect(error.upstreamStatus).toBe(404);
      expect(error.message).toContain(`/athletes/${paramsFor(op).athlete_id ?? ''}`);
    }
  });

  it('answers the scoreboard in csv and arrow with integer, double and logical columns', async () => {
    const base = '/v1/ops/mens_scoreboard?dates=20241201';
    const columns = columnsFor('mens_scoreboard') ?? [];
    const csv = await (await get(`${base}&format=csv`)).text();
    expect(csv.split(/\r?\n/)[0]).toBe(columns.join(','));

    const res = await get(`${base}&format=arrow`);
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(table.schema.fields.map((f) => f.name)).toEqual([...columns]);
    expect(table.numRows).toBeGreaterThan(0);
    const field = (name: string) => table.schema.fields.find((f) => f.name === name);
    expect(field('game_id')?.type.typeId).toBe(Type.Utf8);
    expect(field('season_year')?.type.typeId).toBe(Type.Int);
    expect(field('status_clock')?.type.typeId).toBe(Type.Float);
    expect(field('status_type_completed')?.type.typeId).toBe(Type.Bool);
  });

  it('answers a generic operation in arrow and csv', async () => {
    const res = await get('/v1/ops/womens_teams_site?format=arrow');
    expect(res.status).toBe(200);
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(table.numRows).toBeGreaterThan(0);
    const csv = await (await get('/v1/ops/womens_teams_site?format=csv')).text();
    expect(csv.split(/\r?\n/)[0]).toBe(table.schema.fields.map((f) => f.name).join(','));
  });

  describe('refuses invalid requests with 400 before any upstream request', () => {
    it.each([
      ['/v1/ops/mens_scoreboard?dates=2024-12-01', 'dates'],
      ['/v1/ops/mens_scoreboard?dates=20241301', 'dates'],
      ['/v1/ops/mens_team_schedule?team_id=13&season=24', 'season'],
      ['/v1/ops/mens_team', 'team_id'],
      ['/v1/ops/mens_team?team_id=1%2F2', 'team_id'],
      ['/v1/ops/mens_news?limit=0', 'limit'],
      ['/v1/ops/mens_news?bogus=1', 'bogus'],
      ['/v1/ops/mens_news?limit=1&limit=2', 'limit'],
      ['/v1/ops/mens_news?format=xml', 'format'],
      ['/v1/ops/mens_news?table=plays', 'table'],
      ['/v1/ops/mens_summary?event_id=401585607&format=csv', 'table'],
      ['/v1/ops/mens_summary?event_id=401585607&format=arrow', 'table'],
      ['/v1/ops/mens_summary?event_id=401585607&table=nope', 'table'],
      ['/v1/ops/mens_summary?event_id=401585607&table=plays&format=raw', 'table'],
      ['/v1/ops/mens_scoreboard?season_type=9', 'season_type'],
      ['/v1/ops/mens_scoreboard?dates=20231201-20241231', 'dates'],
      ['/v1/ops/mens_scoreboard?limit=1001', 'limit'],
      ['/v1/ops/mens_summary', 'event_id'],
      ['/v1/ops/womens_summary?format=raw', 'event_id'],
    ])('%s names %s', async (path, param) => {
      api.upstream.requests.clear();
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_PARAMS');
      expect(body.error.message).toContain(`"${param}"`);
      expect(api.upstream.requests.count()).toBe(0);
    });
  });

  it('answers a date range from one scoreboard per day, merged, saying so; no range is sent', async () => {
    // What the simulator (playing 2026 ESPN, which refuses ranges) files under each day.
    const perDay = new Set<string>();
    for (let d = 1; d <= 7; d++) {
      const direct = await fetch(
        `${api.upstream.url}${buildRequest('mens_scoreboard', { dates: `2024120${d}` }).pathAndQuery}`,
      );
      for (const e of ((await direct.json()) as { events: { id: string }[] }).events) perDay.add(e.id);
    }
    expect(perDay.size).toBeGreaterThan(10);
    api.upstream.requests.clear();
    const res = await get('/v1/ops/mens_scoreboard?dates=20241201-20241207');
    expect(res.status).toBe(200);
    expect(res.headers.get('courtside-source')).toBe('merged-scoreboards');
    expect(res.headers.get('courtside-notice')).toMatch(
      /^range-merged; dates=20241201-20241207 answered from 7 scoreboard\(s\)/,
    );
    const ids = ((await res.json()) as { game_id: string }[]).map((r) => r.game_id);
    expect(ids).toHaveLength(perDay.size);
    expect(new Set(ids)).toEqual(perDay);
    const sent = api.upstream.requests.entries;
    expect(sent).toHaveLength(7);
    expect(sent.every((r) => r.status === 200 && /^[0-9]{8}$/.test(r.query.dates ?? ''))).toBe(true);
    expect(sent.every((r) => r.query.limit === '500')).toBe(true);

    const raw = await get('/v1/ops/mens_scoreboard?dates=20241201-20241207&limit=3&format=raw');
    const body = (await raw.json()) as { leagues: unknown[]; events: { id: string }[]; day?: unknown };
    expect(body.leagues.length).toBeGreaterThan(0);
    expect(body.events.map((e) => e.id)).toEqual(ids.slice(0, 3));
    expect(body.day).toBeUndefined();
  });

  it('sends a limit above 500 as 500 and says so in a header', async () => {
    api.upstream.requests.clear();
    const res = await get('/v1/ops/mens_news?limit=800');
    expect(res.status).toBe(200);
    expect(res.headers.get('courtside-notice')).toMatch(/^limit-capped; limit 800 lowered to 500/);
    expect(api.upstream.requests.entries.map((r) => r.query)).toEqual([{ limit: '500' }]);
    const small = await get('/v1/ops/mens_news?limit=20');
    expect(small.headers.get('courtside-notice')).toBeNull();
  });

  it('answers 404 for an unknown operation, without an upstream request', async () => {
    api.upstream.requests.clear();
    for (const name of ['mens_nope', 'womens_player_info', 'womens_standings', 'mens_scoreboard/extra']) {
      const res = await get(`/v1/ops/${name}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_OPERATION');
    }
    // A league typed as people say it gets the operation's name.
    const nba = await get('/v1/ops/nba_scoreboard');
    expect(((await nba.json()) as { error: { message: string } }).error.message).toBe(
      'unknown operation "nba_scoreboard"; did you mean mens_scoreboard? (NBA is mens, WNBA is womens)',
    );
    expect(api.upstream.requests.count()).toBe(0);
  });

  it('answers 405 for a method other than GET or HEAD', async () => {
    const res = await fetch(`${api.url}/v1/ops/mens_news`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 502 with the upstream status when the upstream fails', async () => {
    api.upstream.faults.failNext(1, { status: 503 });
    const res = await get('/v1/ops/mens_news');
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; upstreamStatus?: number } };
    expect(body.error.code).toBe('UPSTREAM_HTTP');
    expect(body.error.upstreamStatus).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // And it recovers on the next call.
    expect((await get('/v1/ops/mens_news')).status).toBe(200);
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    api.upstream.faults.hangNext(1);
    const res = await get('/v1/ops/mens_injuries');
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_TIMEOUT');
  });

  it('sends an ETag and answers 304 to If-None-Match', async () => {
    const path = '/v1/ops/mens_teams_site';
    const first = await get(path);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    await first.arrayBuffer();
    const second = await get(path, { 'if-none-match': etag ?? '' });
    expect(second.status).toBe(304);
    expect(second.headers.get('etag')).toBe(etag);
    expect(await second.text()).toBe('');
    const other = await get(path, { 'if-none-match': '"something-else"' });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    // Different formats of one payload are different bodies with different tags.
    const csv = await get(`${path}?format=csv`);
    expect(csv.headers.get('etag')).not.toBe(etag);
  });
});
