import type { League } from '../core/leagues.js';
import { pick, randomInt, type Random } from './random.js';
import { possession } from './synthetic-possession.js';
import {
  Scoresheet,
  type AthleteLine,
  type SimTeam,
  type WinProbabilityEntry,
} from './synthetic-scoresheet.js';

/**
 * A possession-by-possession basketball game: ESPN-shaped plays with running scores,
 * wallclocks, coordinates and a win probability per play, plus each athlete's box score.
 * The tip-off and the periods are here; a possession's phases are synthetic-possession.ts, the
 * running state they write to synthetic-scoresheet.ts.
 */

export {
  NO_COORDINATE,
  OVERTIME_SECONDS,
  PERIOD_SECONDS,
  emptyLine,
  homeWinProbability,
  type AthleteLine,
  type SimTeam,
} from './synthetic-scoresheet.js';

export interface SimulatedPlays {
  readonly plays: Record<string, unknown>[];
  readonly winprobability: WinProbabilityEntry[];
  readonly homeScore: number;
  readonly awayScore: number;
  readonly periods: number;
  readonly linescores: { home: number[]; away: number[] };
  readonly lines: ReadonlyMap<string, AthleteLine>;
  readonly firstWallclock: number;
  readonly lastWallclock: number;
}

export function simulatePlays(
  league: League,
  gameId: string,
  home: SimTeam,
  away: SimTeam,
  firstWallclock: number,
  random: Random,
): SimulatedPlays {
  const sheet = new Scoresheet(league, gameId, home, away, firstWallclock, random);
  const linescores = { home: [] as number[], away: [] as number[] };
  const firstOffense = tipOff(sheet);
  let offense = firstOffense;
  while (true) {
    const startHome = sheet.homeScore;
    const startAway = sheet.awayScore;
    while (sheet.clock > 0) offense = possession(sheet, offense);
    linescores.home.push(sheet.homeScore - startHome);
    linescores.away.push(sheet.awayScore - startAway);
    const [endText, endShort] = sheet.style.endOfPeriod(sheet.period);
    sheet.add('412', 'End Period', endText, { short: endShort, deadSeconds: 1 });
    if (sheet.period >= sheet.regulationPeriods && sheet.homeScore !== sheet.awayScore) break;
    sheet.nextPeriod();
    // The second and third quarters (or the second half) start with the team that did not win the
    // tip (alternating).
    if (sheet.period <= sheet.regulationPeriods)
      offense = sheet.period === 2 || sheet.period === 3 ? sheet.other(firstOffense) : firstOffense;
  }
  sheet.add('402', 'End Game', 'End of Game', {
    short: 'End of Game',
    deadSeconds: randomInt(random, 5, 12),
  });
  return {
    plays: sheet.plays,
    winprobability: sheet.winprobability,
    homeScore: sheet.homeScore,
    awayScore: sheet.awayScore,
    periods: sheet.period,
    linescores,
    lines: sheet.lines,
    firstWallclock,
    lastWallclock: sheet.wall,
  };
}

/** The opening jump ball between the centres; returns the team that gains possession. */
function tipOff(sheet: Scoresheet): SimTeam {
  const { home, away, random } = sheet;
  const [homeCenter, awayCenter] = [sheet.court(home)[4], sheet.court(away)[4]];
  const offense = random() < 0.5 ? home : away;
  const gainer = pick(random, sheet.court(offense).slice(0, 4));
  if (homeCenter && awayCenter) {
    sheet.add(
      '615',
      'Jumpball',
      `${homeCenter.displayName} vs. ${awayCenter.displayName} (${gainer.displayName} gains possession)`,
      {
        team: offense,
        participants: [homeCenter, awayCenter, gainer],
        short: 'Jump Ball',
        deadSeconds: 0,
      },
    );
  }
  return offense;
}
