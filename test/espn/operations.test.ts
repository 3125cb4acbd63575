import { describe, expect, it } from 'vitest';
import { InvalidParamsError, UnknownOperationError } from '../../src/core/errors.js';
import {
  OPERATIONS,
  OPERATION_NAMES,
  buildRequest,
  getOperation,
  isOperationName,
  suggestOperation,
} from '../../src/espn/operations.js';
import { PARAM_RULES } from '../../src/espn/params.js';
import { DEFAULT_LEAGUES } from '../../src/core/leagues.js';
import { HAVE_SPEC, NO_SPEC_REASON, readEndpointTable, specPath } from './spec-table.js';

if (!HAVE_SPEC) console.warn(`[skip] ${NO_SPEC_REASON}`);

/** A value each parameter accepts, to build a URL with every parameter set. */
const SAMPLE: Record<string, string> = {
  dates: '20240317',
  week: '3',
  season_type: '2',
  groups: '7',
  limit: '5',
  event_id: '401585607',
  season: '2024',
  group: 'east',
  standings_type: 'by-division',
  team_id: '13',
  athlete_id: '1966',
};

// The spec's table covers the two professional leagues; the college operations are checked in
// college-operations.test.ts.
const PRO_NAMES = OPERATION_NAMES.filter((n) => DEFAULT_LEAGUES.includes(getOperation(n).league));

describe.skipIf(!HAVE_SPEC)('the registry against the spec endpoint table', () => {
  const rows = HAVE_SPEC ? readEndpointTable() : [];

  it('reads 24 suffixes giving the 44 operations of the professional leagues', () => {
    expect(rows).toHaveLength(24);
    const names = rows.flatMap((r) => r.leagues.map((l) => `${l}_${r.suffix}`));
    expect(names).toHaveLength(44);
    expect([...PRO_NAMES].sort()).toEqual([...names].sort());
  });

  it.each(rows.map((r) => [r.suffix, r] as const))('%s: path, parameters and URL', (_suffix, row) => {
    for (const league of ['mens', 'womens'] as const) {
      const name = `${league}_${row.suffix}`;
      if (!row.leagues.includes(league)) {
        expect(isOperationName(name)).toBe(false);
        expect(() => getOperation(name)).toThrow(UnknownOperationError);
        expect(() => buildRequest(name, {})).toThrow(UnknownOperationError);
        continue;
      }
      const op = getOperation(name);
      expect(op.league).toBe(league);
      expect(op.suffix).toBe(row.suffix);

      const pathParams = row.params.filter((p) => p.where === 'path');
      const queryParams = row.params.filter((p) => p.where === 'query');
      expect([...op.pathParams]).toEqual(pathParams.map((p) => p.client));
      expect(op.queryParams.map((q) => [q.name, q.upstream])).toEqual(
        queryParams.map((p) => [p.client, p.upstream]),
      );
      expect([...op.params]).toEqual(row.params.map((p) => p.client));

      // The URL with only the path parameters: the documented path, no query string. An operation with
      // a required query parameter (the summary's event) refuses that call before any request.
      const pathOnly = Object.fromEntries(pathParams.map((p) => [p.client, SAMPLE[p.client] as string]));
      let expectedPath = specPath(row.path, league);
      for (const p of pathParams)
        expectedPath = expectedPath.replace(`{${p.upstream}}`, SAMPLE[p.client] as string);
      const requiredQuery = op.queryParams.filter((q) => q.required);
      if (requiredQuery.length === 0) {
        expect(buildRequest(name, pathOnly).pathAndQuery).toBe(expectedPath);
      } else {
        expect(() => buildRequest(name, pathOnly)).toThrow(InvalidParamsError);
      }
      expect(expectedPath).not.toContain('?');
      expect(expectedPath).not.toMatch(/[{}]/);

      // Every parameter set: query under the upstream names, in the table's order.
      const all = Object.fromEntries(row.params.map((p) => [p.client, SAMPLE[p.client] as string]));
      const query = queryParams.map((p) => `${p.upstream}=${SAMPLE[p.client] as string}`).join('&');
      expect(buildRequest(name, all).pathAndQuery).toBe(query ? `${expectedPath}?${query}` : expectedPath);

      // Path parameters are always required.
      for (const p of pathParams) {
        const missing = { ...all };
        delete missing[p.client];
        expect(() => buildRequest(name, missing)).toThrow(InvalidParamsError);
      }
    }
  });

  it('requires the event id of a summary, and only that among query parameters', () => {
    const required = [...OPERATIONS.values()].flatMap((op) =>
      op.queryParams.filter((q) => q.required).map((q) => `${op.name}.${q.name}`),
    );
    expect(required.sort()).toEqual([
      'mens_college_summary.event_id',
      'mens_summary.event_id',
      'womens_college_summary.event_id',
      'womens_summary.event_id',
    ]);
    for (const value of [undefined, null, '']) {
      const error = (() => {
        try {
          buildRequest('mens_summary', value === undefined ? {} : { event_id: value });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect((error as InvalidParamsError).param).toBe('event_id');
      expect((error as InvalidParamsError).message).toContain('(required)');
    }
  });

  it('keeps the standings under /apis/v2 with no site segment', () => {
    expect(buildRequest('mens_standings').pathAndQuery).toBe('/apis/v2/sports/basketball/nba/standings');
  });
});

describe('suggestOperation', () => {
  it.each([
    ['nba_scoreboard', 'mens_scoreboard', 'NBA is mens, WNBA is womens'],
    ['WNBA_summary', 'womens_summary', 'NBA is mens, WNBA is womens'],
    ['nba_team_rostr', 'mens_team_roster', 'NBA is mens, WNBA is womens'],
    ['mens_scorebord', 'mens_scoreboard', undefined],
    ['ncaam_team_rostr', 'mens_college_team_roster', 'NCAAM is mens_college, NCAAW is womens_college'],
    ['NCAAW_summary', 'womens_college_summary', 'NCAAM is mens_college, NCAAW is womens_college'],
    ['mens-college_scoreboard', 'mens_college_scoreboard', 'NCAAM is mens_college, NCAAW is womens_college'],
    ['mens_college_scorebord', 'mens_college_scoreboard', undefined],
    [
      'scoreboard',
      'mens_scoreboard or womens_scoreboard or mens_college_scoreboard or womens_college_scoreboard',
      undefined,
    ],
  ])('%s: did you mean %s', (typed, name, note) => {
    expect(suggestOperation(typed)).toEqual(note ? { name, note } : { name });
  });

  it.each(['womens_standings', 'wnba_standings', 'nba_xyz', 'foo', ''])('%j: no suggestion', (typed) => {
    // WNBA standings are not an operation: the NBA's are not what was meant.
    expect(suggestOperation(typed)).toBeUndefined();
  });

  it('is in the unknown operation error', () => {
    expect(() => getOperation('nba_scoreboard')).toThrow(
      'unknown operation "nba_scoreboard"; did you mean mens_scoreboard? (NBA is mens, WNBA is womens)',
    );
  });
});

describe('operations outside the registry', () => {
  it.each([
    'womens_standings',
    'womens_player_info',
    'womens_player_bio',
    'womens_player_news',
    'nba_scoreboard',
    '',
    'mens_',
  ])('%j is an unknown operation', (name) => {
    const error = (() => {
      try {
        buildRequest(name);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnknownOperationError);
    expect((error as UnknownOperationError).code).toBe('UNKNOWN_OPERATION');
  });

  it('every registry parameter has a rule', () => {
    for (const op of OPERATIONS.values()) for (const p of op.params) expect(PARAM_RULES[p]).toBeDefined();
  });

  it('gives every operation a positive TTL', () => {
    for (const op of OPERATIONS.values()) expect(op.ttlMs).toBeGreaterThan(0);
    expect(getOperation('mens_summary').ttlMs).toBeLessThan(getOperation('mens_teams_site').ttlMs);
  });
});
