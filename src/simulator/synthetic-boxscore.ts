import type { League } from '../core/leagues.js';
import { athleteObject, rosterFor, type SimAthlete } from './athletes.js';
import type { JsonObject } from './espn-shapes.js';
import type { SimulatedPlays } from './synthetic-plays.js';
import { emptyLine, type AthleteLine } from './synthetic-scoresheet.js';
import { teamObject, type CatalogTeam } from './team-catalog.js';

/**
 * A synthetic game's box score (each team's totals and each athlete's line) and its leaders
 * (points, assists, rebounds), from the lines the simulated plays kept.
 */

type Json = JsonObject;

const PLAYER_KEYS = [
  'minutes',
  'points',
  'fieldGoalsMade-fieldGoalsAttempted',
  'threePointFieldGoalsMade-threePointFieldGoalsAttempted',
  'freeThrowsMade-freeThrowsAttempted',
  'rebounds',
  'assists',
  'turnovers',
  'steals',
  'blocks',
  'offensiveRebounds',
  'defensiveRebounds',
  'fouls',
  'plusMinus',
];
const PLAYER_LABELS = [
  'MIN',
  'PTS',
  'FG',
  '3PT',
  'FT',
  'REB',
  'AST',
  'TO',
  'STL',
  'BLK',
  'OREB',
  'DREB',
  'PF',
  '+/-',
];

function statLine(l: AthleteLine): string[] {
  return [
    String(Math.round(l.seconds / 60)),
    String(l.points),
    `${l.fgm}-${l.fga}`,
    `${l.tpm}-${l.tpa}`,
    `${l.ftm}-${l.fta}`,
    String(l.oreb + l.dreb),
    String(l.ast),
    String(l.to),
    String(l.stl),
    String(l.blk),
    String(l.oreb),
    String(l.dreb),
    String(l.pf),
    l.plusMinus > 0 ? `+${l.plusMinus}` : String(l.plusMinus),
  ];
}

function totals(roster: readonly SimAthlete[], sim: SimulatedPlays): AthleteLine {
  const sum = emptyLine();
  for (const athlete of roster) {
    const l = sim.lines.get(athlete.id);
    if (!l) continue;
    for (const k of Object.keys(sum) as (keyof AthleteLine)[]) sum[k] += l[k];
  }
  return sum;
}

const pct = (made: number, attempted: number): string =>
  attempted ? String(Math.round((made / attempted) * 100)) : '0';

export function boxscore(
  league: League,
  sim: SimulatedPlays,
  teams: readonly [CatalogTeam, CatalogTeam],
): Json {
  return {
    teams: teams.map((team, i) => {
      const t = totals(rosterFor(league, team), sim);
      const stat = (name: string, label: string, displayValue: string, abbreviation?: string) => ({
        name,
        displayValue,
        ...(abbreviation ? { abbreviation } : {}),
        label,
      });
      return {
        team: teamObject(league, team),
        statistics: [
          stat('fieldGoalsMade-fieldGoalsAttempted', 'FG', `${t.fgm}-${t.fga}`),
          stat('fieldGoalPct', 'Field Goal %', pct(t.fgm, t.fga), 'FG%'),
          stat('threePointFieldGoalsMade-threePointFieldGoalsAttempted', '3PT', `${t.tpm}-${t.tpa}`),
          stat('threePointFieldGoalPct', 'Three Point %', pct(t.tpm, t.tpa), '3P%'),
          stat('freeThrowsMade-freeThrowsAttempted', 'FT', `${t.ftm}-${t.fta}`),
          stat('freeThrowPct', 'Free Throw %', pct(t.ftm, t.fta), 'FT%'),
          stat('totalRebounds', 'Rebounds', String(t.oreb + t.dreb), 'REB'),
          stat('offensiveRebounds', 'Offensive Rebounds', String(t.oreb), 'OR'),
          stat('defensiveRebounds', 'Defensive Rebounds', String(t.dreb), 'DR'),
          stat('assists', 'Assists', String(t.ast), 'AST'),
          stat('steals', 'Steals', String(t.stl), 'STL'),
          stat('blocks', 'Blocks', String(t.blk), 'BLK'),
          stat('turnovers', 'Turnovers', String(t.to), 'TO'),
          stat('fouls', 'Fouls', String(t.pf), 'PF'),
        ],
        displayOrder: i === 0 ? 2 : 1,
        homeAway: i === 0 ? 'home' : 'away',
      };
    }),
    players: teams.map((team, i) => {
      const roster = rosterFor(league, team);
      const t = totals(roster, sim);
      return {
        team: teamObject(league, team),
        statistics: [
          {
            names: PLAYER_LABELS,
            keys: PLAYER_KEYS,
            labels: PLAYER_LABELS,
            descriptions: PLAYER_LABELS,
            athletes: roster.map((athlete, n) => {
              const l = sim.lines.get(athlete.id);
              const played = !!l && l.seconds > 0;
              return {
                active: n < 5,
                athlete: athleteObject(league, athlete),
                starter: n < 5,
                didNotPlay: !played,
                reason: played ? '' : "COACH'S DECISION",
                ejected: false,
                stats: played && l ? statLine(l) : [],
              };
            }),
            totals: ['', ...statLine(t).slice(1, 13), ''],
          },
        ],
        displayOrder: i === 0 ? 2 : 1,
      };
    }),
  };
}

export function leaders(
  league: League,
  sim: SimulatedPlays,
  teams: readonly [CatalogTeam, CatalogTeam],
): Json[] {
  const categories = [
    ['points', 'Points', (l: AthleteLine) => l.points],
    ['assists', 'Assists', (l: AthleteLine) => l.ast],
    ['rebounds', 'Rebounds', (l: AthleteLine) => l.oreb + l.dreb],
  ] as const;
  return teams.map((team) => ({
    team: teamObject(league, team),
    leaders: categories.map(([name, label, value]) => {
      const best = [...rosterFor(league, team)].sort(
        (x, y) =>
          value(sim.lines.get(y.id) ?? ({} as AthleteLine)) -
          value(sim.lines.get(x.id) ?? ({} as AthleteLine)),
      )[0];
      const v = best ? value(sim.lines.get(best.id) as AthleteLine) : 0;
      return {
        name,
        displayName: label,
        leaders: best
          ? [
              {
                displayValue: String(v),
                value: v,
                athlete: athleteObject(league, best),
                mainStat: { value: String(v), label: label.slice(0, 3).toUpperCase() },
                summary: `${v} ${label.slice(0, 3).toUpperCase()}`,
              },
            ]
          : [],
      };
    }),
  }));
}
