import type { League } from '../core/leagues.js';
import { athleteObject, rosterFor } from './athletes.js';
import { SEASON_YEAR, season, seasonLabel } from './generated-common.js';
import { hashString } from './random.js';
import { TEAMS, displayName, teamFor, teamObject, type CatalogTeam } from './team-catalog.js';

/** Generated payloads of the per-team and per-athlete operations, for any team or athlete id. */

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

export function athlete(league: League, athleteId: string): Record<string, unknown> {
  const { team, index } = findAthlete(league, athleteId);
  return { ...athleteEntity(league, team, index), id: athleteId, team: teamObject(league, team) };
}

export function record(): Record<string, unknown> {
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

export function teamEntity(league: League, teamId: string): unknown {
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

export function schedule(league: League, teamId: string): unknown {
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

export function roster(league: League, teamId: string): unknown {
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

export function depthcharts(league: League, teamId: string): unknown {
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

export function leaders(league: League, teamId: string): unknown {
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

export function history(league: League, teamId: string): unknown {
  const team = teamFor(league, teamId);
  return {
    team: teamObject(league, team),
    items: [
      { season: SEASON_YEAR[league] - 1, record: '45-37', result: 'Lost in first round' },
      { season: SEASON_YEAR[league] - 2, record: '38-44', result: 'Missed playoffs' },
    ],
  };
}

export function bio(league: League, athleteId: string): unknown {
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
