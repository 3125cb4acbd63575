import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/core/errors.js';
import { buildRequest } from '../../src/espn/operations.js';
import {
  datesProblem,
  MAX_RANGE_MONTHS,
  monthsBetween,
  validateParam,
  type ParamName,
} from '../../src/espn/params.js';

function invalid(operation: string, params: Record<string, unknown>): InvalidParamsError {
  try {
    buildRequest(operation, params);
  } catch (error) {
    if (error instanceof InvalidParamsError) return error;
    throw error;
  }
  throw new Error(`expected ${operation} ${JSON.stringify(params)} to be refused`);
}

describe('dates: which rule a refused value breaks', () => {
  it.each([
    [
      '20240318-20240317',
      /the range is reversed: it ends \(20240317\) before it starts \(20240318\); give the earlier day first/,
    ],
    ['20231201-20241201', /the range touches 13 calendar months, more than 12; split it/],
    ['2024-03-17', /not one of the forms: digits only, with one dash between the two days of a range/],
    ['20240317-', /not one of the forms/],
    ['20240230', /20240230 is not a day of the calendar/],
    ['20240101-20240132', /20240132 is not a day of the calendar/],
    ['202413', /there is no month 13/],
  ])('%s: %s', (value, reason) => {
    expect(datesProblem(value)).toMatch(reason);
    // The error names the rule beside the expected form, and each rule its own way.
    const error = invalid('mens_scoreboard', { dates: value });
    expect(error.message).toMatch(reason);
    expect(error.message).toContain('expected a date YYYYMMDD');
  });

  it.each(['2024', '202403', '20240317', '20240301-20240317', '20231101-20241031'])(
    '%s breaks none',
    (value) => {
      expect(datesProblem(value)).toBeUndefined();
    },
  );
});

describe('parameter validation', () => {
  const bad: [string, ParamName, unknown, RegExp][] = [
    ['mens_scoreboard', 'dates', '2024-03-17', /YYYYMMDD/],
    ['mens_scoreboard', 'dates', '20240230', /real dates/],
    ['mens_scoreboard', 'dates', '20231301', /YYYYMMDD/],
    ['mens_scoreboard', 'dates', '20240318-20240317', /in order/],
    ['mens_scoreboard', 'dates', '20240101-20240132', /YYYYMMDD/],
    ['mens_scoreboard', 'dates', '2024031', /YYYYMMDD/],
    ['mens_scoreboard', 'dates', '20240317-', /YYYYMMDD/],
    ['mens_scoreboard', 'dates', '202413', /a month YYYYMM/],
    ['mens_scoreboard', 'dates', '202400', /a month YYYYMM/],
    ['mens_scoreboard', 'dates', '24', /a year YYYY/],
    ['mens_scoreboard', 'dates', '2024-12', /a month YYYYMM/],
    // 13 calendar months: more than a season or a year, refused before any request.
    ['mens_scoreboard', 'dates', '20231201-20241201', /at most 12 calendar months/],
    ['mens_scoreboard', 'dates', '20230101-20241231', /at most 12 calendar months/],
    ['mens_scoreboard', 'season_type', '5', /1-4/],
    ['mens_scoreboard', 'season_type', 0, /1-4/],
    ['mens_scoreboard', 'limit', '0', /positive integer up to 1000/],
    ['mens_scoreboard', 'limit', 1001, /up to 1000/],
    ['mens_news', 'limit', '2.5', /positive integer/],
    ['mens_news', 'limit', -1, /positive integer/],
    ['mens_scoreboard', 'week', '0', /positive integer/],
    ['mens_scoreboard', 'week', 'one', /positive integer/],
    ['mens_scoreboard', 'groups', 'a b', /letters, digits and dashes/],
    ['mens_team_schedule', 'season', '24', /four-digit year/],
    ['mens_standings', 'season', '2024-25', /four-digit year/],
    ['mens_standings', 'group', '../x', /letters, digits and dashes/],
    ['mens_standings', 'standings_type', 'by division', /letters, digits and dashes/],
    ['mens_summary', 'event_id', '401585607?x=1', /letters, digits and dashes/],
    ['mens_summary', 'event_id', '', /event id/],
    ['mens_team', 'team_id', '13/../../x', /team id/],
    ['mens_team', 'team_id', 'x'.repeat(65), /team id/],
    ['mens_player_info', 'athlete_id', '19 66', /athlete id/],
    ['mens_summary', 'event_id', { id: 1 }, /event id/],
    ['mens_summary', 'event_id', Number.NaN, /event id/],
  ];

  it.each(bad)('%s refuses %s=%j, naming parameter, value and form', (op, param, value, form) => {
    const error = invalid(op, withPath(op, param, value));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.param).toBe(param);
    expect(error.value).toEqual(value);
    expect(error.message).toContain(`"${param}"`);
    expect(error.message).toMatch(form);
    expect(error.message).toContain(op);
    if (typeof value === 'string' && value.length < 100)
      expect(error.message).toContain(JSON.stringify(value));
  });

  it('refuses unknown parameters, naming the accepted ones', () => {
    const error = invalid('mens_summary', { event_id: '1', eventid: '1' });
    expect(error.param).toBe('eventid');
    expect(error.message).toContain('event_id');
    const none = invalid('mens_calendar', { limit: 5 });
    expect(none.param).toBe('limit');
    expect(none.message).toContain('no parameters');
    // Upstream names are not client names.
    expect(invalid('mens_scoreboard', { seasontype: '2' }).param).toBe('seasontype');
    expect(invalid('mens_summary', { event: '1' }).param).toBe('event');
  });

  it('requires path parameters', () => {
    const error = invalid('mens_team_roster', {});
    expect(error.param).toBe('team_id');
    expect(error.message).toContain('required');
  });

  it('accepts every valid form and normalises numbers', () => {
    expect(buildRequest('mens_scoreboard', { dates: '20240229' }).pathAndQuery).toMatch(/dates=20240229$/);
    expect(buildRequest('mens_scoreboard', { dates: '20240301-20240317' }).pathAndQuery).toMatch(
      /dates=20240301-20240317$/,
    );
    expect(buildRequest('mens_scoreboard', { dates: '20240317-20240317' }).pathAndQuery).toMatch(
      /dates=20240317-20240317$/,
    );
    expect(buildRequest('mens_scoreboard', { limit: 1000, season_type: 4, week: 1 }).pathAndQuery).toMatch(
      /\?week=1&seasontype=4&limit=1000$/,
    );
    expect(buildRequest('mens_news', { limit: '007' }).pathAndQuery).toMatch(/\?limit=7$/);
    expect(buildRequest('womens_team', { team_id: 'la' }).pathAndQuery).toBe(
      '/apis/site/v2/sports/basketball/wnba/teams/la',
    );
    expect(buildRequest('mens_scoreboard', { dates: undefined }).pathAndQuery).not.toContain('?');
    expect(validateParam('season', 2024)).toBe('2024');
  });

  it('accepts a month YYYYMM, a year YYYY and a range over at most 12 calendar months', () => {
    for (const dates of ['202412', '202401', '2024', '20241001-20250930', '20240101-20241231']) {
      expect(buildRequest('mens_scoreboard', { dates }).pathAndQuery).toMatch(new RegExp(`dates=${dates}$`));
    }
    expect(monthsBetween('20241201', '20241207')).toBe(1);
    expect(monthsBetween('20241130', '20241201')).toBe(2);
    expect(monthsBetween('20241001', '20250930')).toBe(MAX_RANGE_MONTHS);
  });

  it('refuses a params value that is not an object', () => {
    expect(() => buildRequest('mens_scoreboard', 'dates=1' as unknown as Record<string, unknown>)).toThrow(
      InvalidParamsError,
    );
  });
});

function withPath(op: string, param: string, value: unknown): Record<string, unknown> {
  const needsTeam = op.includes('_team_') || op.endsWith('_team');
  return { ...(needsTeam && param !== 'team_id' ? { team_id: '13' } : {}), [param]: value };
}
