import type { League } from '../core/leagues.js';
import { athleteObject, rosterFor } from './athletes.js';
import { SEASON_YEAR, season, seasonLabel } from './generated-common.js';
import { scheduledType } from './game-status.js';
import { syntheticScheduleId } from './synthetic-ids.js';
import { TEAMS, displayName, teamObject, type CatalogTeam } from './team-catalog.js';

/** Generated payloads of the per-team and per-athlete operations, for the catalog's teams and athletes. */

/** An athlete of the simulator's rosters: the team and the place on its roster. */
export interface RosterSpot {
  readonly team: CatalogTeam;
  readonly index: number;
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

/** The athlete with this id on one of the league's generated rosters. */
export function findAthlete(league: League, athleteId: string): RosterSpot | undefined {
  for (const team of TEAMS[league]) {
    const index = rosterFor(league, team).findIndex((a) => a.id === athleteId);
    if (index >= 0) return { team, index };
  }
  return undefined;
}

export function athlete(league: League, { team, index }: RosterSpot): Record<string, unknown> {
  return { ...athleteEntity(league, team, index), team: teamObject(league, team) };
}

/** A line of the team record: a split (overall, home, road) with its wins and losses. */
function recordItem(
  description: string,
  type: string,
  wins: number,
  losses: number,
): Record<string, unknown> {
  return {
    description,
    type,
    summary: `${wins}-${losses}`,
    stats: [
      { name: 'wins', value: wins },
      { name: 'losses', value: losses },
    ],
  };
}

export function record(): Record<string, unknown> {
  return {
    items: [
      recordItem('Overall Record', 'total', 41, 41),
      recordItem('Home Record', 'home', 22, 19),
      recordItem('Away Record', 'road', 19, 22),
    ],
  };
}

export function teamEntity(league: League, team: CatalogTeam): unknown {
  return {
    team: {
      ...teamObject(league, team),
      nickname: team.name,
      record: record(),
      standingSummary: '8th in Conference',
    },
  };
}

export function schedule(league: League, team: CatalogTeam): unknown {
  const opponents = TEAMS[league].filter((t) => t.id !== team.id).slice(0, 6);
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    team: teamObject(league, team),
    events: opponents.map((opp, i) => {
      const id = syntheticScheduleId(`${league}/${team.id}/${opp.id}`);
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
            status: { type: scheduledType() },
          },
        ],
        links: [],
      };
    }),
  };
}

export function roster(league: League, team: CatalogTeam): unknown {
  return {
    timestamp: '2025-01-15T12:00:00Z',
    status: 'success',
    season: season(league),
    athletes: rosterFor(league, team).map((_, i) => athleteEntity(league, team, i)),
    coach: [{ id: `c${team.id}`, firstName: 'Sim', lastName: 'Coach', experience: 3 }],
    team: teamObject(league, team),
  };
}

export function depthcharts(league: League, team: CatalogTeam): unknown {
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

export function leaders(league: League, team: CatalogTeam): unknown {
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

export function history(league: League, team: CatalogTeam): unknown {
  return {
    team: teamObject(league, team),
    items: [
      { season: SEASON_YEAR[league] - 1, record: '45-37', result: 'Lost in first round' },
      { season: SEASON_YEAR[league] - 2, record: '38-44', result: 'Missed playoffs' },
    ],
  };
}

export function bio(league: League, spot: RosterSpot): unknown {
  const { team } = spot;
  return {
    athlete: athlete(league, spot),
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
