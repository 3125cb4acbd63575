import type { League } from '../../src/core/leagues.js';
import { finalLabel as finalOf, periodShortLabel } from '../../src/core/periods.js';
import type { Score, TeamRef } from '../../src/model/events.js';

/** `1st`, `2nd`… of the league's quarters or halves, then `OT`, `2OT`, `3OT`... */
export function periodLabel(period: number | null | undefined, league: League): string {
  if (period == null) return '';
  return periodShortLabel(league, period);
}

/** `LAL 102 - BOS 101`, `#1 KU 75 - #11 DUKE 72`: away team first, the way US box scores read. */
export function scoreLine(teams: { home: TeamRef; away: TeamRef }, score: Score): string {
  return `${teamName(teams.away)} ${score.away} - ${teamName(teams.home)} ${score.home}`;
}

/** A team's abbreviation, after its poll rank when it has one: `#11 DUKE`. */
export function teamName(team: Pick<TeamRef, 'abbreviation' | 'rank'>): string {
  return team.rank != null ? `#${team.rank} ${team.abbreviation}` : team.abbreviation;
}

/** `LAL 102 - BOS 101, 1:12 4th` (the clock part is left out when unknown). */
export function momentLine(
  teams: { home: TeamRef; away: TeamRef },
  score: Score,
  period: number | null,
  clock: string | null,
  league: League,
): string {
  const when = [clock, periodLabel(period, league)].filter((part) => part !== null && part !== '').join(' ');
  return when ? `${scoreLine(teams, score)}, ${when}` : scoreLine(teams, score);
}

/** Seconds left on a game clock shown as `1:12`, `12:00` or `45.1`; null when unreadable. */
export function clockSeconds(clock: string | null | undefined): number | null {
  if (clock == null) return null;
  const match = /^(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(clock.trim());
  if (!match) return null;
  return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

/** `Final`, `Final/OT`, `Final/2OT`. */
export function finalLabel(periods: number, league: League): string {
  return finalOf(league, periods);
}
