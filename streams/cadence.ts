import type { GameState } from '../src/model/events.js';
import type { EngineIntervals } from './engine-types.js';

// Windows before a tip-off: the scoreboard is polled fast from 10 minutes before it, so that a game
// moved forward or listed late is still seen in time, and a game's summary poller starts 2 minutes
// before it, so that the first plays are not missed.
export const SOON_MS = 10 * 60_000;
export const SUMMARY_LEAD_MS = 2 * 60_000;

export interface ScheduledGame {
  state: GameState;
  /** Scheduled start, ms, or null when unknown. */
  start: number | null;
}

/** Delay until the next scoreboard poll of a league, from the games it listed. */
export function scoreboardDelay(
  games: readonly ScheduledGame[],
  now: number,
  intervals: Pick<EngineIntervals, 'scoreboardLiveMs' | 'scoreboardGameDayMs' | 'scoreboardIdleMs'>,
): number {
  if (
    games.some((g) => g.state === 'in' || (g.state === 'pre' && g.start !== null && g.start - now <= SOON_MS))
  ) {
    return intervals.scoreboardLiveMs;
  }
  return games.length > 0 ? intervals.scoreboardGameDayMs : intervals.scoreboardIdleMs;
}

/** A game's summary is polled while it is in progress, or from 2 minutes before its start. */
export function wantsSummary(game: ScheduledGame, now: number): boolean {
  return (
    game.state === 'in' ||
    (game.state === 'pre' && game.start !== null && game.start - now <= SUMMARY_LEAD_MS)
  );
}
