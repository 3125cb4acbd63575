import { LEAGUE_SEGMENT, type League } from '../espn/leagues.js';
import { athleteObject, rosterFor } from './athletes.js';
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
import { hashString } from './random.js';
import { generateFinishedSummary } from './synthetic-game.js';

/**
 * Payloads of ESPN's shapes for operations (or ids) with no recording, built from the
 * simulator's own catalog so every one of the 44 operations answers something well-formed.
 */
export type Generator = (league: League, params: Readonly<Record<string, string>>) => unknown;

// Why: the seasons the catalog and the generated calendar describe; any fixed year would do.
const SEASON_YEAR: Readonly<Record<League, number>> = { mens: 2025, womens: 2025 };
// Why 10: ESPN's default page for news when no limit is given.
const DEFAULT_NEWS_LIMIT = 10;

const season = (league: League) => ({
  year: SEASON_YEAR[league],
  type: 2,
  name: 'Regular Season',
  displayName: seasonLabel(league),
});
const seasonLabel = (league: League) =>
  league === 'mens'
    ? `${SEASON_YEAR.mens - 1}-${String(SEASON_YEAR.mens).slice(2)}`
    : String(SEASON_YEAR.womens);

export function leagueObject(league: League): Record<string, unknown> {
  return {
    id: LEAGUE_ID[league],
    uid: LEAGUE_UID[league],
    name: LEAGUE_NAME[league],
    abbreviation: LEAGUE_SEGMENT[league].toUpperCase(),
    slug: LEAGUE_SEGMENT[league],
    season: {
      year: SEASON_YEAR[league],
      displayName: seasonLabel(league),
      type: { id: '2', type: 2, name: 'Regular Season', abbreviation: 'reg' },
    },
    logos: [
      {
        href: `https://a.espncdn.com/i/teamlogos/leagues/500/${LEAGUE_SEGMENT[league]}.png`,
        width: 500,
        height: 500,
        alt: '',
        rel: ['full', 'default'],
      },
    ],
  };
}

function article(league: League, n: number, about: string): Record<string, unknown> {
  const id = 40_000_000 + (hashString(`${league}/${about}`) % 1_000_000) * 10 + n;
  const at = new Date(Date.UTC(SEASON_YEAR[league], 0, 15, 12, 0, 0) - n * 3_600_000)
    .toISOString()
    .replace('.000', '');
  const segment = LEAGUE_SEGMENT[league];
  return {
    id,
    nowId: `1-${id}`,
    contentKey: `${id}-1-21-1`,
    dataSourceIdentifier: `sim${id.toString(16)}`,
    type: n % 3 === 0 ? 'Media' : 'HeadlineNews',
    headline: `${about}: simulated story ${n + 1}`,
    description: `A generated article about ${about}.`,
    lastModified: at,
    published: at,
    images: [],
    categories: [{ type: 'league', description: LEAGUE_NAME[league] }],
    premium: false,
    ...(league === 'mens' ? { byline: 'Courtside Simulator' } : {}),
    links: {
      web: { href: `https://www.espn.com/${segment}/story/_/id/${id}` },
      mobile: { href: `https://m.espn.com/${segment}/story?storyId=${id}` },
      api: { self: { href: `https://content.core.api.espn.com/v1/sports/news/${id}` } },
      app: { sportscenter: { href: `sportscenter://x-callback-url/showStory?uid=${id}` } },
    },
  };
}

function news(league: League, params: Readonly<Record<string, string>>, about: string): unknown {
  const limit = Math.min(Number(params.limit ?? DEFAULT_NEWS_LIMIT) || DEFAULT_NEWS_LIMIT, 50);
  return {
    header: `${about} News`,
    link: { href: `https://www.espn.com/${LEAGUE_SEGMENT[league]}/`, text: 'All News' },
    articles: Array.from({ length: limit }, (_, n) => article(league, n, about)),
  };
}

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

function athleteEntity(league: League, team: CatalogTeam, i: number): Record<string, unknown> {
  const athlete = rosterFor(league, team)[i];
  if (!athlete) return {};
  return {
    ...athleteObject(league, athlete),
    firstName: athlete.firstName,
    lastName: athlete.lastName,
    fullName: athlete.displayName,
    weight: 200 + i * 3,
    displayWeight: `${200 + i * 3} lbs`,
    height: 76 + (i % 8),
    displayHeight: `6' ${4 + (i % 8)}"`,
    age: 22 + (i % 12),
    experience: { years: i % 12 },
    status: { id: '1', name: 'Active', type: 'active', abbreviation: 'Active' },
    injuries: [],
  };
}

function findAthlete(league: League, athleteId: string): { team: CatalogTeam; index: number } {
  for (const team of TEAMS[league]) {
    const index = rosterFor(league, team).findIndex((a) => a.id === athleteId);
    if (index >= 0) return { team, index };
  }
  const team = TEAMS[league][hashString(athleteId) % TEAMS[league].length] ?? teamFor(league, '1');
  return { team, index: hashString(athleteId) % rosterFor(league, team).length };
}

function athlete(league: League, athleteId: string): Record<string, unknown> {
  const { team, index } = findAthlete(league, athleteId);
  return { ...athleteEntity(league, team, index), id: athleteId, team: teamObject(league, team) };
}

function record(): Record<string, unknown> {
  return {
    items: [
      {
        description: 'Overall Record',
        type: 'total',
        summary: '41-41',
        stats: [
          { name: 'wins', value: 41 },
          { name: 'losses', value: 41 },
        ],
      },
      {
        description: 'Home Record',
        type: 'home',
        summary: '22-19',
        stats: [
          { name: 'wins', value: 22 },
          { name: 'losses', value: 19 },
        ],
      },
      {
        description: 'Away Record',
        type: 'road',
        summary: '19-22',
        stats: [
          { name: 'wins', value: 19 },
          { name: 'losses', value: 22 },
        ],
      },
    ],
  };
}

function teamEntity(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  return {
    team: {
      ...teamObject(league, team),
      nickname: team.name,
      record: record(),
      standingSummary: '8th in Conference',
    },
  };
}

function schedule(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  const opponents = TEAMS[league].filter((t) => t.id !== team.id).slice(0, 6);
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    team: teamObject(league, team),
    events: opponents.map((opp, i) => {
      const id = String(700_000_000 + (hashString(`${league}/${team.id}/${opp.id}`) % 1_000_000));
      const date = new Date(Date.UTC(SEASON_YEAR[league], 0, 2 + i * 3, 0, 30))
        .toISOString()
        .replace(':00.000', '');
      return {
        id,
        date,
        name: `${displayName(opp)} at ${displayName(team)}`,
        shortName: `${opp.abbreviation} @ ${team.abbreviation}`,
        season: { year: SEASON_YEAR[league], displayName: seasonLabel(league) },
        seasonType: { id: '2', type: 2, name: 'Regular Season', abbreviation: 'reg' },
        timeValid: true,
        competitions: [
          {
            id,
            date,
            competitors: [
              { id: team.id, homeAway: 'home', team: teamObject(league, team) },
              { id: opp.id, homeAway: 'away', team: teamObject(league, opp) },
            ],
            status: {
              type: {
                id: '1',
                name: 'STATUS_SCHEDULED',
                state: 'pre',
                completed: false,
                description: 'Scheduled',
              },
            },
          },
        ],
        links: [],
      };
    }),
  };
}

function roster(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    athletes: rosterFor(league, team).map((_, i) => athleteEntity(league, team, i)),
    coach: [{ id: `c${team.id}`, firstName: 'Sim', lastName: 'Coach', experience: 3 }],
    team: teamObject(league, team),
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

function depthcharts(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  const athletes = rosterFor(league, team);
  const positions: Record<string, unknown> = {};
  ['pg', 'sg', 'sf', 'pf', 'c'].forEach((pos, i) => {
    positions[pos] = {
      position: { abbreviation: pos.toUpperCase() },
      athletes: [athletes[i], athletes[i + 5]].filter(Boolean).map((a) => a && athleteObject(league, a)),
    };
  });
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    team: teamObject(league, team),
    depthchart: [{ id: '1', name: 'Depth Chart', positions }],
  };
}

function leaders(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  const [first, second] = rosterFor(league, team);
  return {
    team: teamObject(league, team),
    leaders: {
      categories: [
        {
          name: 'pointsPerGame',
          displayName: 'Points Per Game',
          leaders: first
            ? [{ displayValue: '24.1', value: 24.1, athlete: athleteObject(league, first) }]
            : [],
        },
        {
          name: 'assistsPerGame',
          displayName: 'Assists Per Game',
          leaders: second
            ? [{ displayValue: '7.4', value: 7.4, athlete: athleteObject(league, second) }]
            : [],
        },
      ],
    },
    items: [],
  };
}

function history(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  return {
    team: teamObject(league, team),
    items: [
      { season: SEASON_YEAR[league] - 1, record: '45-37', result: 'Lost in first round' },
      { season: SEASON_YEAR[league] - 2, record: '38-44', result: 'Missed playoffs' },
    ],
  };
}

function bio(league: League, athleteId: string): unknown {
  const { team } = findAthlete(league, athleteId);
  return {
    athlete: athlete(league, athleteId),
    teamHistory: [
      {
        id: team.id,
        displayName: displayName(team),
        seasons: `${SEASON_YEAR[league] - 3}-${SEASON_YEAR[league]}`,
      },
    ],
    awards: [],
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
