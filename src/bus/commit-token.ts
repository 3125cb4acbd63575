import type { NewGameEvent } from './types.js';

/**
 * Names a commit by its newest event. `seq` increases per game and the id is derived from the
 * content, so two commits of a game share a token only when one is a re-send of the other; both
 * implementations use it to apply such a re-send once. Empty when there are no events (a
 * state-only commit is idempotent by itself).
 */
export function commitToken(events: readonly NewGameEvent[]): string {
  const last = events.at(-1);
  return last ? `${last.seq}:${last.id}:${events.length}` : '';
}
