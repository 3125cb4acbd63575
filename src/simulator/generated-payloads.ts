import { LEAGUE_SEGMENT, type League } from '../core/leagues.js';
import { athleteObject, rosterFor } from './athletes.js';
import { SEASON_YEAR, leagueObject, news, season } from './generated-common.js';
import {
  athlete,
  bio,
  depthcharts,
  history,
  leaders,
  record,
  roster,
  schedule,
  teamEntity,
} from './generated-team-payloads.js';
import {
  LEAGUE_ID,
  LEAGUE_NAME,
  LEAGUE_UID,
  TEAMS,
  displayName,
  teamFor,
  teamObject,
  type CatalogTeam,
} from './team-catalog.js';
import { generateFinishedSummary } from './synthetic-game.js';

/**
 * Payloads of ESPN's shapes for operations (or ids) with no recording, built from the
 * simulator's own catalog so every one of the 44 operations answers something well-formed.
 */
export type Generator = (league: League, params: Readonly<Record<string, string>>) => unknown;

function teamEntry(league: League, team: CatalogTeam): Record<string, unknown> {
  return { team: { ...teamObject(league, team), nickname: team.name, isAllStar: false } };
}

function teamsSite(league: League, params: Readonly<Record<string, string>>): unknown {
  const limit = params.limit ? Number(params.limit) : Infinity;
  return {
    sports: [
      {
        id: '40',
        uid: 's:40',
        name: 'Basketball',
        slug: 'basketball',
        leagues: [
          {
            ...leagueObject(league),
            year: SEASON_YEAR[league],
            teams: TEAMS[league].slice(0, limit).map((t) => teamEntry(league, t)),
          },
        ],
      },
    ],
  };
}

function injuries(league: League, teams: readonly CatalogTeam[]): unknown {
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    injuries: teams.map((team) => {
      const athlete = rosterFor(league, team)[12];
      return {
        id: team.id,
        displayName: displayName(team),
        injuries: athlete
          ? [
              {
                id: `-${athlete.id}`,
                status: 'Day-To-Day',
                date: '2025-01-14T18:00Z',
                shortComment: `${athlete.displayName} is day-to-day.`,
                athlete: athleteObject(league, athlete),
                type: {
                  id: '1',
                  name: 'INJURY_STATUS_DAYTODAY',
                  description: 'day-to-day',
                  abbreviation: 'DD',
                },
                details: { type: 'Ankle', location: 'Leg', side: 'Left', returnDate: '2025-01-17' },
              },
            ]
          : [],
      };
    }),
  };
}

function transactions(league: League, teams: readonly CatalogTeam[]): unknown {
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    count: teams.length,
    transactions: teams.map((team, i) => ({
      date: new Date(Date.UTC(SEASON_YEAR[league], 0, 14 - (i % 10))).toISOString().replace(':00.000', ''),
      description: `Signed ${rosterFor(league, team)[12]?.displayName ?? 'a player'} to a 10-day contract.`,
      team: teamObject(league, team),
    })),
  };
}

function groups(league: League): unknown {
  const half = Math.ceil(TEAMS[league].length / 2);
  const conf = (name: string, abbreviation: string, teams: readonly CatalogTeam[]) => ({
    name,
    abbreviation,
    children: [{ name: `${name} Division`, abbreviation, teams: teams.map((t) => teamObject(league, t)) }],
  });
  return {
    groups: [
      conf('Eastern Conference', 'East', TEAMS[league].slice(0, half)),
      conf('Western Conference', 'West', TEAMS[league].slice(half)),
    ],
    status: 'success',
  };
}

function standings(league: League): unknown {
  const half = Math.ceil(TEAMS[league].length / 2);
  const entries = (teams: readonly CatalogTeam[]) =>
    teams.map((team, i) => ({
      team: teamObject(league, team),
      stats: [
        {
          name: 'wins',
          displayName: 'Wins',
          abbreviation: 'W',
          value: 50 - i * 2,
          displayValue: String(50 - i * 2),
        },
        {
          name: 'losses',
          displayName: 'Losses',
          abbreviation: 'L',
          value: 32 + i * 2,
          displayValue: String(32 + i * 2),
        },
        {
          name: 'winPercent',
          displayName: 'Win Percentage',
          abbreviation: 'PCT',
          value: (50 - i * 2) / 82,
          displayValue: ((50 - i * 2) / 82).toFixed(3),
        },
        {
          name: 'gamesBehind',
          displayName: 'Games Back',
          abbreviation: 'GB',
          value: i * 2,
          displayValue: i === 0 ? '-' : String(i * 2),
        },
      ],
    }));
  return {
    uid: LEAGUE_UID[league],
    id: LEAGUE_ID[league],
    name: LEAGUE_NAME[league],
    abbreviation: LEAGUE_SEGMENT[league].toUpperCase(),
    children: [
      {
        uid: `${LEAGUE_UID[league]}~g:5`,
        id: '5',
        name: 'Eastern Conference',
        abbreviation: 'East',
        standings: { entries: entries(TEAMS[league].slice(0, half)) },
      },
      {
        uid: `${LEAGUE_UID[league]}~g:6`,
        id: '6',
        name: 'Western Conference',
        abbreviation: 'West',
        standings: { entries: entries(TEAMS[league].slice(half)) },
      },
    ],
  };
}

function calendar(league: League): unknown {
  const y = SEASON_YEAR[league];
  const items = [
    { label: 'Preseason', value: '1', startDate: `${y - 1}-10-04T07:00Z`, endDate: `${y - 1}-10-21T06:59Z` },
    { label: 'Regular Season', value: '2', startDate: `${y - 1}-10-22T07:00Z`, endDate: `${y}-04-14T06:59Z` },
    { label: 'Postseason', value: '3', startDate: `${y}-04-15T07:00Z`, endDate: `${y}-06-30T06:59Z` },
  ];
  return {
    type: 'calendar',
    startDate: items[0]?.startDate,
    endDate: items[2]?.endDate,
    items,
    eventDate: { type: 'day', dates: [] },
  };
}

function draft(league: League): unknown {
  const teams = TEAMS[league];
  return {
    year: SEASON_YEAR[league],
    displayName: `${SEASON_YEAR[league]} ${LEAGUE_SEGMENT[league].toUpperCase()} Draft`,
    status: { state: 'post', type: { name: 'COMPLETED' } },
    picks: teams.map((team, i) => ({
      pick: i + 1,
      overall: i + 1,
      round: 1,
      traded: false,
      teamId: team.id,
      athlete: { displayName: `Draftee ${i + 1}` },
    })),
    teams: teams.map((t) => teamObject(league, t)),
  };
}

function statistics(league: League): unknown {
  return {
    status: 'success',
    season: season(league),
    stats: {
      categories: [
        { name: 'points', displayName: 'Points Per Game', abbreviation: 'PTS', leaders: [] },
        { name: 'rebounds', displayName: 'Rebounds Per Game', abbreviation: 'REB', leaders: [] },
      ],
    },
    items: TEAMS[league].map((team) => ({
      team: teamObject(league, team),
      points: 112.4,
      rebounds: 44.1,
      assists: 26.3,
    })),
  };
}

function scoreboard(league: League, params: Readonly<Record<string, string>>): unknown {
  const date = params.dates?.slice(0, 8);
  return {
    leagues: [leagueObject(league)],
    season: { type: 2, year: SEASON_YEAR[league] },
    day: {
      date: date
        ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`
        : `${SEASON_YEAR[league]}-01-15`,
    },
    events: [],
  };
}

const teamParam = (params: Readonly<Record<string, string>>) => params.team_id ?? '1';
const athleteParam = (params: Readonly<Record<string, string>>) => params.athlete_id ?? '1';

export const GENERATORS: Readonly<Record<string, Generator>> = {
  scoreboard,
  summary: (league, params) => generateFinishedSummary(league, params.event_id ?? '900000001'),
  calendar,
  news: (league, params) => news(league, params, LEAGUE_SEGMENT[league].toUpperCase()),
  injuries: (league) => injuries(league, TEAMS[league]),
  transactions: (league) => transactions(league, TEAMS[league]),
  conferences: groups,
  statistics_league: statistics,
  draft,
  teams_site: teamsSite,
  team: (league, params) => teamEntity(league, teamParam(params)),
  team_roster: (league, params) => roster(league, teamParam(params)),
  team_schedule: (league, params) => schedule(league, teamParam(params)),
  team_record: () => record(),
  team_depthcharts: (league, params) => depthcharts(league, teamParam(params)),
  team_injuries: (league, params) => injuries(league, [teamFor(league, teamParam(params))]),
  team_transactions: (league, params) => transactions(league, [teamFor(league, teamParam(params))]),
  team_history: (league, params) => history(league, teamParam(params)),
  team_news: (league, params) => news(league, params, displayName(teamFor(league, teamParam(params)))),
  team_leaders: (league, params) => leaders(league, teamParam(params)),
  player_info: (league, params) => ({ athlete: athlete(league, athleteParam(params)) }),
  player_bio: (league, params) => bio(league, athleteParam(params)),
  player_news: (league, params) =>
    news(league, params, String(athlete(league, athleteParam(params)).displayName ?? 'Player')),
  standings,
};

export function generatePayload(
  suffix: string,
  league: League,
  params: Readonly<Record<string, string>>,
): unknown {
  const generator = GENERATORS[suffix];
  return generator ? generator(league, params) : {};
}
