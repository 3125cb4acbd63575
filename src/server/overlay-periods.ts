import { LEAGUES, type League } from '../core/leagues.js';
import { finalLabel, periodFormat, periodShortLabel } from '../core/periods.js';

/**
 * `GET /overlay/assets/periods.js`: the leagues' period names for the overlay pages, written from
 * src/core/periods.ts when the daemon starts, so the pages (plain browser JavaScript, no build
 * step) name quarters, halves and overtimes exactly as the engine does and keep no table of their
 * own. Each league lists its short names (`1st`, `2nd`, `OT`, `2OT`…) and its finals (`Final`,
 * `Final/OT`…) by period number, index 0 unused.
 */

// Sixteen overtimes: more than any game has gone (the record is seven).
const OVERTIMES = 16;

function names(league: League, name: (league: League, period: number) => string): string[] {
  const last = periodFormat(league).regulation + OVERTIMES;
  return Array.from({ length: last + 1 }, (_, period) => (period === 0 ? '' : name(league, period)));
}

export function overlayPeriodsScript(): string {
  const short = Object.fromEntries(LEAGUES.map((l) => [l, names(l, periodShortLabel)]));
  const finals = Object.fromEntries(LEAGUES.map((l) => [l, names(l, finalLabel)]));
  return [
    '// Written by the daemon from src/core/periods.ts (src/server/overlay-periods.ts).',
    `export const PERIOD_NAMES = ${JSON.stringify(short)};`,
    `export const FINAL_NAMES = ${JSON.stringify(finals)};`,
    '',
  ].join('\n');
}
