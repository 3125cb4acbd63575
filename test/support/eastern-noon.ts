import { easternDay, easternInstant } from '../../src/espn/eastern-day.js';

/**
 * Noon Eastern of today's Eastern day: where a test starts a simulated day whose games span hours.
 * ESPN files a game under the Eastern day of its tip-off, and from the real clock a run late in
 * the Eastern evening put the later games, or a game moved on by hours, on the next day's board,
 * which a daemon whose own clock is still on the earlier day does not read.
 */
export function easternNoonToday(): number {
  return easternInstant(easternDay(Date.now()), 12);
}
