import { isCollege, type League } from '../core/leagues.js';
import { periodLabel, periodShortLabel } from '../core/periods.js';
import { formatClock } from './game-status.js';
import type { Random } from './random.js';

/**
 * How each league's feed words and types the plays a synthetic game makes, and the college rules
 * that shape it (team fouls, the bonus, official TV timeouts, the timeouts a team has). The pro
 * wording follows the recorded NBA and WNBA games; the college wording the recorded men's and
 * women's college games (one `PersonalFoul` type, `ShortTimeOut` / `RegularTimeOut` for teams,
 * `OfficialTVTimeOut` with no team, `MadeFreeThrow` for every free throw, made or missed).
 */

// [type id, type text, words in the play text, relative frequency among two-point attempts]
export const TWO_POINT_TYPES = [
  ['110', 'Driving Layup Shot', 'driving layup', 8],
  ['95', 'Layup Shot', 'layup', 6],
  ['92', 'Jump Shot', 'jumper', 10],
  ['131', 'Pullup Jump Shot', 'pullup jump shot', 7],
  ['130', 'Floating Jump Shot', 'floating jump shot', 4],
  ['96', 'Dunk Shot', 'dunk', 3],
  ['93', 'Hook Shot', 'hook shot', 2],
] as const;
export const THREE_POINT_TYPES = [
  ['92', 'Jump Shot', 'three point jumper'],
  ['132', 'Step Back Jump Shot', 'step back three point jumper'],
  ['131', 'Pullup Jump Shot', 'pullup three point shot'],
] as const;
export const TURNOVER_TYPES = [
  ['62', 'Bad Pass\nTurnover', 'bad pass', true],
  ['63', 'Lost Ball Turnover', 'lost ball turnover', true],
  ['64', 'Traveling', 'traveling', false],
  ['70', 'Shot Clock Turnover', 'shot clock turnover', false],
  ['90', 'Out of Bounds - Bad Pass Turnover', 'out of bounds bad pass turnover', false],
] as const;

/** What the fouled team shoots on a common foul: nothing, a one-and-one, or two shots. */
export type BonusShots = 0 | 'one_and_one' | 2;

export interface PlayStyle {
  readonly college: boolean;
  /** [type id, type text, play text] of a defender's foul. */
  foul(fouler: string, shooting: boolean): readonly [string, string, string];
  /** [type id, type text, play text] of a team's timeout. */
  timeout(team: string, random: Random): readonly [string, string, string];
  /** [type id, type text] of free throw `k` of `n`. */
  freeThrowType(k: number, n: number): readonly [string, string];
  /**
   * What a common foul gives when the fouling team has `teamFouls` fouls in the count including
   * it. Men's college: one-and-one from the 7th, two from the 10th (NCAA men's rule 4-6); women's
   * college: two from the 5th in a quarter (NCAA women's rule 4-2). The pro games are simulated
   * without bonus free throws, as before college games were.
   */
  bonus(teamFouls: number): BonusShots;
  /** The period whose team-foul count a period adds to: overtime continues the last regulation one. */
  foulCount(period: number): number;
  /** Seconds left at whose first dead ball under them an official TV timeout is taken (regulation only). */
  readonly tvTimeouts: readonly number[];
  /** Team timeouts a team may take by the end of `period`: 4 a game, one more per overtime. */
  timeoutsBy(period: number): number;
  clock(seconds: number): string;
  /** [text, short form] of the end-of-period play. */
  endOfPeriod(period: number): readonly [string, string];
}

const FT_IDS = (k: number, n: number): string =>
  n === 1 ? '97' : k === 1 ? (n === 2 ? '98' : '100') : n === 2 ? '99' : k === 2 ? '101' : '102';

function proStyle(league: League): PlayStyle {
  return {
    college: false,
    foul: (fouler, shooting) =>
      shooting
        ? ['44', 'Shooting Foul', `${fouler} shooting foul`]
        : ['45', 'Personal Foul', `${fouler} personal foul`],
    timeout: (team) => ['16', 'Full Timeout', `${team} Full timeout`],
    freeThrowType: (k, n) => [FT_IDS(k, n), `Free Throw - ${k} of ${n}`],
    bonus: () => 0,
    foulCount: (period) => period,
    tvTimeouts: [],
    timeoutsBy: () => Infinity,
    clock: formatClock,
    endOfPeriod: (period) => [
      `End of the ${periodLabel(league, period)}`,
      `End of ${periodShortLabel(league, period)}`,
    ],
  };
}

function collegeStyle(league: League): PlayStyle {
  const men = league === 'mens-college';
  const regulation = men ? 2 : 4;
  return {
    college: true,
    foul: (fouler) => ['519', 'PersonalFoul', `Foul on ${fouler}.`],
    timeout: (team, random) =>
      random() < 0.6
        ? ['579', 'ShortTimeOut', `${team} Timeout`]
        : ['578', 'RegularTimeOut', `${team} Timeout`],
    freeThrowType: () => ['540', 'MadeFreeThrow'],
    bonus: men
      ? (fouls) => (fouls >= 10 ? 2 : fouls >= 7 ? 'one_and_one' : 0)
      : (fouls) => (fouls >= 5 ? 2 : 0),
    foulCount: (period) => Math.min(period, regulation),
    // Media timeouts: under 16, 12, 8 and 4 minutes of each half (men); under 5 of each quarter (women).
    tvTimeouts: men ? [960, 720, 480, 240] : [300],
    timeoutsBy: (period) => 4 + Math.max(0, period - regulation),
    // College clocks read `M:SS` to the end (`0:07`); the pro leagues show tenths under a minute.
    clock: (seconds) =>
      seconds >= 60 ? formatClock(seconds) : `0:${String(Math.ceil(Math.max(0, seconds))).padStart(2, '0')}`,
    endOfPeriod: (period) => {
      const label = periodLabel(league, period);
      const short = `End of ${periodShortLabel(league, period)}`;
      if (period > regulation) return [`End of ${period - regulation === 1 ? '1st' : label} Overtime`, short];
      if (men) return [`End of ${label.toLowerCase()}`, period === 1 ? 'Halftime' : short];
      return [`End of ${label}`, short];
    },
  };
}

export function playStyle(league: League): PlayStyle {
  return isCollege(league) ? collegeStyle(league) : proStyle(league);
}
