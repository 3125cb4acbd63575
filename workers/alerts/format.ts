import type { Score, TeamRef } from '../../src/model/events.js';

/** `1st`..`4th`, then `OT`, `2OT`, `3OT`... (both leagues play four quarters). */
export function periodLabel(period: number | null | undefined): string {
  if (period == null || period < 1) return '';
  if (period <= 4) return `${period}${['st', 'nd', 'rd', 'th'][period - 1]}`;
  const ot = period - 4;
  return ot === 1 ? 'OT' : `${ot}OT`;
}

/** `LAL 102 - BOS 101`: away team first, the way US box scores read. */
export function scoreLine(teams: { home: TeamRef; away: TeamRef }, score: Score): string {
  return `${teams.away.abbreviation} ${score.away} - ${teams.home.abbreviation} ${score.home}`;
}

/** `LAL 102 - BOS 101, 1:12 4th` (the clock part is left out when unknown). */
export function momentLine(
  teams: { home: TeamRef; away: TeamRef },
  score: Score,
  period: number | null,
  clock: string | null,
): string {
  const when = [clock, periodLabel(period)].filter((part) => part !== null && part !== '').join(' ');
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
export function finalLabel(periods: number): string {
  return periods > 4 ? `Final/${periodLabel(periods)}` : 'Final';
}
