import { describe, expect, it } from 'vitest';
import { UnknownOperationError } from '../../src/core/errors.js';
import { buildRequest, getOperation, OPERATIONS } from '../../src/espn/operations.js';

const SITE = '/apis/site/v2/sports/basketball';

describe('the college operations', () => {
  it('sends every college operation to its league on ESPN’s paths', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      [
        'mens_college_scoreboard',
        { dates: '20241201', groups: '50', limit: '300' },
        `${SITE}/mens-college-basketball/scoreboard?dates=20241201&groups=50&limit=300`,
      ],
      [
        'womens_college_summary',
        { event_id: '401724593' },
        `${SITE}/womens-college-basketball/summary?event=401724593`,
      ],
      ['mens_college_rankings', {}, `${SITE}/mens-college-basketball/rankings`],
      ['womens_college_rankings', {}, `${SITE}/womens-college-basketball/rankings`],
      ['mens_college_conferences', {}, `${SITE}/mens-college-basketball/groups`],
      ['mens_college_team_roster', { team_id: '150' }, `${SITE}/mens-college-basketball/teams/150/roster`],
      [
        'womens_college_team_schedule',
        { team_id: '259', season: '2025' },
        `${SITE}/womens-college-basketball/teams/259/schedule?season=2025`,
      ],
      [
        'mens_college_standings',
        { group: '2' },
        '/apis/v2/sports/basketball/mens-college-basketball/standings?group=2',
      ],
    ];
    for (const [name, params, path] of cases)
      expect(buildRequest(name, params).pathAndQuery, name).toBe(path);
  });

  it('asks the college team lists for all of Division I unless the call gives a limit', () => {
    expect(buildRequest('mens_college_teams_site').pathAndQuery).toBe(
      `${SITE}/mens-college-basketball/teams?limit=500`,
    );
    expect(buildRequest('womens_college_teams_site', { limit: 20 }).pathAndQuery).toBe(
      `${SITE}/womens-college-basketball/teams?limit=20`,
    );
    // The professional lists are as before: ESPN answers all 30 (or 13) teams without a limit.
    expect(buildRequest('mens_teams_site').pathAndQuery).toBe(`${SITE}/nba/teams`);
  });

  it('has no polls for the professional leagues', () => {
    expect(OPERATIONS.has('mens_rankings')).toBe(false);
    expect(OPERATIONS.has('womens_rankings')).toBe(false);
    expect(getOperation('mens_college_rankings').league).toBe('mens-college');
  });

  it.each([
    ['mens_college_draft', 'mens_draft, womens_draft'],
    ['womens_college_team_depthcharts', 'mens_team_depthcharts, womens_team_depthcharts'],
    ['womens_player_info', 'mens_player_info'],
    ['womens_standings', 'mens_standings, mens_college_standings, womens_college_standings'],
    ['mens_rankings', 'mens_college_rankings, womens_college_rankings'],
  ])('refuses %s, naming where ESPN serves it (%s)', (name, offered) => {
    const error = (() => {
      try {
        getOperation(name);
      } catch (e) {
        return e;
      }
    })() as UnknownOperationError;
    expect(error).toBeInstanceOf(UnknownOperationError);
    expect(error.code).toBe('UNKNOWN_OPERATION');
    expect(error.message).toBe(
      `unknown operation "${name}"; ESPN does not serve it for this league, only as ${offered}`,
    );
  });
});
