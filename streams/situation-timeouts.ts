import type { TeamSituation } from '../src/model/events.js';
import type { CollegeTimeouts, ProTimeouts, SituationRules } from './situation-rules.js';

/** A team's timeouts as counted from the play list. */
export interface TimeoutCount {
  timeoutsByPeriod: Map<number, number>;
  /** Timeouts in the 4th period's closing minutes, after its second mandatory timeout (the NBA's late cap). */
  lateFourthTimeouts: number;
  /** WNBA reset timeouts in the game, and in the situation's period. */
  resets: number;
  resetsInPeriod: number;
}

/**
 * Timeouts taken and remaining now, by the league's rule. A team shown taking more than the rule
 * allows (a misrecorded play) has 0 left, never a negative count.
 */
export function timeoutsOf(
  team: TimeoutCount,
  period: number | null,
  now: number | null,
  rules: SituationRules,
): TeamSituation['timeouts'] {
  let taken = 0;
  for (const n of team.timeoutsByPeriod.values()) taken += n;
  const t = rules.timeouts;
  if (t.kind === 'college') {
    return { taken, remaining: collegeRemaining(team, period, rules.periods, t), reset: null };
  }
  return {
    taken,
    remaining: proRemaining(team, period, now, rules.periods, t),
    reset: resetOf(team, period, now, rules.periods, t),
  };
}

function takenIn(team: TimeoutCount, from: number, to: number): number {
  let n = 0;
  for (const [p, count] of team.timeoutsByPeriod) if (p >= from && p <= to) n += count;
  return n;
}

/**
 * The NBA's and WNBA's: the regulation allowance (with the NBA's caps in the 4th), then a fresh
 * allowance in each overtime period.
 */
function proRemaining(
  team: TimeoutCount,
  period: number | null,
  now: number | null,
  periods: number,
  t: ProTimeouts,
): number {
  let remaining: number;
  if (period !== null && period > periods) {
    remaining = t.perOvertime - (team.timeoutsByPeriod.get(period) ?? 0);
  } else {
    remaining = t.regulation - takenIn(team, 1, periods);
    if (period === periods) {
      const fourth = team.timeoutsByPeriod.get(period) ?? 0;
      if (t.fourthPeriodMax !== null) remaining = Math.min(remaining, t.fourthPeriodMax - fourth);
      if (t.lateFourth !== null && now !== null && now < t.lateFourth.seconds) {
        remaining = Math.min(remaining, t.lateFourth.max - team.lateFourthTimeouts);
      }
    }
  }
  return Math.max(0, remaining);
}

/**
 * The NCAA's: the game's allowance in the first half; in the second, what the first half left, at
 * most `secondHalfMax`; in overtime, what the second half left plus one per overtime period so far.
 */
function collegeRemaining(
  team: TimeoutCount,
  period: number | null,
  periods: number,
  t: CollegeTimeouts,
): number {
  const firstHalf = Math.max(0, t.perGame - takenIn(team, 1, t.firstHalfPeriods));
  if (period === null || period <= t.firstHalfPeriods) return firstHalf;
  const carried = Math.min(t.secondHalfMax, firstHalf);
  const secondHalf = Math.max(0, carried - takenIn(team, t.firstHalfPeriods + 1, periods));
  if (period <= periods) return secondHalf;
  const overtimes = period - periods;
  return Math.max(0, secondHalf + overtimes * t.perOvertime - takenIn(team, periods + 1, period));
}

/**
 * The reset timeout: one in the last two minutes of the 4th and one in those of each overtime,
 * never carried. Before its window, `remaining` is the one the team will have in the next window
 * (1) and `available` is false; in the window it is what is left of the period's one.
 */
function resetOf(
  team: TimeoutCount,
  period: number | null,
  now: number | null,
  periods: number,
  t: ProTimeouts,
): NonNullable<TeamSituation['timeouts']['reset']> | null {
  const per = t.resetPerClosingPeriod;
  if (per === null) return null;
  const closing = period !== null && period >= periods;
  const left = Math.max(0, per - (closing ? team.resetsInPeriod : 0));
  // A reset already taken in the period shows its window is open, whatever clock is known.
  const open = closing && ((now !== null && now < t.resetWindowSeconds) || team.resetsInPeriod > 0);
  return { taken: team.resets, remaining: left, available: open && left > 0 };
}
