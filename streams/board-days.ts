import { InvalidOptionsError } from '../src/core/errors.js';
import { easternDay, easternInstant } from '../src/espn/eastern-day.js';

/**
 * Which Eastern days' boards to read around the Eastern date seam. ESPN files a game under the
 * Eastern day of its tip-off, and its default board (no `dates`) moves to the next day at Eastern
 * midnight while late games may still be playing, in overtime, or being corrected. So besides the
 * default board the scoreboard poller reads the previous Eastern day's board (`dates=<yesterday>`):
 *
 * - during a window after Eastern midnight (until 06:00 Eastern by default), whatever that board
 *   held: corrections to games that just ended arrive then too;
 * - after the window, while its last reading listed a game that is not final;
 * - once, when it was never read for that day (an engine started after the window), to find out.
 */

/** Until when (Eastern wall clock) the previous day's board is read in any case; `HH:MM`. */
export const DEFAULT_PREVIOUS_DAY_UNTIL = '06:00';

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:MM` (00:00-23:59) as minutes after midnight; throws `InvalidOptionsError` naming `name`. */
export function parseEasternTime(text: string, name = 'previousDayUntil'): number {
  const m = HH_MM.exec(text);
  if (!m) {
    throw new InvalidOptionsError(
      `${name} must be an Eastern wall-clock time HH:MM from 00:00 to 23:59, e.g. 06:00; got ${JSON.stringify(text)}`,
    );
  }
  return Number(m[1]) * 60 + Number(m[2]);
}

/** The calendar day before `day`; both `YYYYMMDD`. */
export function previousDay(day: string): string {
  // Calendar arithmetic only: noon UTC has no daylight-saving gap to fall into.
  const t = new Date(
    Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8)) - 1, 12),
  );
  return t.toISOString().slice(0, 10).replaceAll('-', '');
}

/** The last reading of a dated board: its day, and whether it listed a game not yet final. */
export interface DayReading {
  readonly day: string;
  readonly open: boolean;
}

/**
 * The previous Eastern day (`YYYYMMDD`) whose board should be read at `now`, or null.
 * `untilMinutes`: the window after Eastern midnight, in minutes of the Eastern wall clock (0: no
 * window); on the nights clocks change it still ends when the wall clock shows that time.
 */
export function previousDayToRead(now: number, untilMinutes: number, last: DayReading | null): string | null {
  const today = easternDay(now);
  const yesterday = previousDay(today);
  if (now < easternInstant(today, Math.floor(untilMinutes / 60), untilMinutes % 60)) return yesterday;
  if (last === null || last.day !== yesterday) return yesterday;
  return last.open ? yesterday : null;
}
