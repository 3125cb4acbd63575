import type { League } from './leagues.js';

/**
 * How each league divides a game into periods, and the names of those periods. The engine puts
 * the names into its events and snapshots so that no consumer keeps a table of its own.
 * ESPN's `format` block in every recorded summary agrees: NBA 4 × 720 s, WNBA 4 × 600 s, men's
 * college 2 halves of 1,200 s, women's college 4 quarters of 600 s, overtimes of 300 s in all four.
 */
export interface PeriodFormat {
  /** Regulation periods: 4 quarters, or 2 halves. */
  regulation: number;
  /** What a regulation period is called. */
  unit: 'Quarter' | 'Half';
  /** Length of a regulation period, seconds. */
  periodSeconds: number;
  /** Length of an overtime period, seconds. */
  overtimeSeconds: number;
}

const QUARTERS_12: PeriodFormat = {
  regulation: 4,
  unit: 'Quarter',
  periodSeconds: 720,
  overtimeSeconds: 300,
};
const QUARTERS_10: PeriodFormat = {
  regulation: 4,
  unit: 'Quarter',
  periodSeconds: 600,
  overtimeSeconds: 300,
};
const HALVES_20: PeriodFormat = { regulation: 2, unit: 'Half', periodSeconds: 1200, overtimeSeconds: 300 };

const FORMATS: Readonly<Record<League, PeriodFormat>> = {
  mens: QUARTERS_12,
  womens: QUARTERS_10,
  'mens-college': HALVES_20,
  'womens-college': QUARTERS_10,
};

export function periodFormat(league: League): PeriodFormat {
  return FORMATS[league];
}

/** True for a period after regulation. */
export function isOvertime(league: League, period: number): boolean {
  return period > FORMATS[league].regulation;
}

/** Length of a period, seconds (a regulation period or an overtime). */
export function periodSeconds(league: League, period: number): number {
  const f = FORMATS[league];
  return period > f.regulation ? f.overtimeSeconds : f.periodSeconds;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** `OT`, `2OT`, `3OT`… for the overtime periods, null for a regulation one. */
function overtimeLabel(league: League, period: number): string | null {
  const ot = period - FORMATS[league].regulation;
  if (ot < 1) return null;
  return ot === 1 ? 'OT' : `${ot}OT`;
}

/**
 * The period's name as ESPN's plays show it: `1st Quarter`, `2nd Half`, `OT`, `2OT`. An
 * unusable period number (0, negative, not an integer) gives the empty string.
 */
export function periodLabel(league: League, period: number): string {
  if (!Number.isInteger(period) || period < 1) return '';
  return overtimeLabel(league, period) ?? `${ordinal(period)} ${FORMATS[league].unit}`;
}

/** The short form for a clock cell or a one-line summary: `1st`, `2nd`, `OT`, `2OT`. */
export function periodShortLabel(league: League, period: number): string {
  if (!Number.isInteger(period) || period < 1) return '';
  return overtimeLabel(league, period) ?? ordinal(period);
}

/** A finished game's status as ESPN words it: `Final`, `Final/OT`, `Final/6OT`. */
export function finalLabel(league: League, periods: number): string {
  const ot = Number.isInteger(periods) ? overtimeLabel(league, periods) : null;
  return ot === null ? 'Final' : `Final/${ot}`;
}
