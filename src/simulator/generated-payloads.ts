import { LEAGUE_SEGMENT, isCollege, type League } from '../core/leagues.js';
import { collegeGroups, rankings } from './generated-college-payloads.js';
import { athleteObject, rosterFor } from './athletes.js';
import { SEASON_YEAR, leagueObject, news, scoreboardLeague, season } from './generated-common.js';
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
  type RosterSpot,
} from './generated-team-payloads.js';
import {
  LEAGUE_ID,
  LEAGUE_NAME,
  LEAGUE_UID,
  TEAMS,
  displayName,
  teamObject,
  type CatalogTeam,
} from './team-catalog.js';

type Params = Readonly<Record<string, string>>;

/**
 * Payloads of ESPN's shapes for requests no recording answers, built from the simulator's own
 * catalog of teams and generated rosters, so every one of the 44 operations has something
 * well-formed to answer for the ids the simulator knows. Game summaries are not generated here: a
 * game exists only as a served game or a recording.
 */

function teamEntry(league: League, team: CatalogTeam): Record<string, unknown> {
  return { team: { ...teamObject(league, team), nickname: team.name, isAllStar: false } };
}

function teamsSite(league: League, params: Params): unknown {
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

function scoreboard(league: League, params: Params): unknown {
  const date = params.dates?.slice(0, 8);
  return {
    leagues: [scoreboardLeague(league)],
    season: { type: 2, year: SEASON_YEAR[league] },
    day: {
      date: date
        ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`
        : `${SEASON_YEAR[league]}-01-15`,
    },
    events: [],
  };
}

/** Builds an operation's payload from the league's catalog alone. */
export type LeagueGenerator = (league: League, params: Params) => unknown;
/** Builds a per-team operation's payload for a team of the catalog. */
export type TeamGenerator = (league: League, team: CatalogTeam, params: Params) => unknown;
/** Builds a per-athlete operation's payload for an athlete of the generated rosters. */
export type AthleteGenerator = (league: League, spot: RosterSpot, params: Params) => unknown;

export const LEAGUE_GENERATORS: Readonly<Record<string, LeagueGenerator>> = {
  scoreboard,
  calendar,
  news: (league, params) => news(league, params, LEAGUE_SEGMENT[league].toUpperCase()),
  injuries: (league) => injuries(league, TEAMS[league]),
  transactions: (league) => transactions(league, TEAMS[league]),
  conferences: (league) => (isCollege(league) ? collegeGroups(league) : groups(league)),
  statistics_league: statistics,
  draft,
  teams_site: teamsSite,
  standings,
  rankings,
};

export const TEAM_GENERATORS: Readonly<Record<string, TeamGenerator>> = {
  team: teamEntity,
  team_roster: roster,
  team_schedule: schedule,
  team_record: () => record(),
  team_depthcharts: depthcharts,
  team_injuries: (league, team) => injuries(league, [team]),
  team_transactions: (league, team) => transactions(league, [team]),
  team_history: history,
  team_news: (league, team, params) => news(league, params, displayName(team)),
  team_leaders: leaders,
};

export const ATHLETE_GENERATORS: Readonly<Record<string, AthleteGenerator>> = {
  player_info: (league, spot) => ({ athlete: athlete(league, spot) }),
  player_bio: bio,
  player_news: (league, spot, params) =>
    news(league, params, rosterFor(league, spot.team)[spot.index]?.displayName ?? 'Player'),
};
