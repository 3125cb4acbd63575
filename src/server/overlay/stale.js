// When is what a page shows no longer fresh? Two ways it goes stale, and the page keeps the last
// good data on screen, marked, in both:
// - `connection`: the page has had no open stream for longer than its threshold (a short blip
//   while the daemon restarts should not flash a marker over the broadcast);
// - `poller`: the daemon is up but its poller of this game is failing (the upstream is away), so
//   the stream is open and silent. Read from `/healthz`, which lists every poller's state.
import { withToken } from './params.js';

// How often the pollers' state is read: a failing upstream shows within one poll of the marker.
const HEALTH_EVERY_MS = 10_000;
const FAILED_POLLS = 2;

/**
 * `onChange(reason)` is called with `'connection'`, `'poller'` or `''` when the reason changes.
 * `game` is `{ league, gameId }` for a game page, or `{ leagues }` for a page of many games
 * (then any failing summary or scoreboard poller of those leagues marks it).
 */
export function createStaleWatch({ game, thresholdMs, onChange }) {
  let reason = '';
  let disconnectedAt = Date.now();
  let open = false;
  let pollerFailing = false;
  let finished = false;

  const update = () => {
    const next =
      !open && Date.now() - disconnectedAt >= thresholdMs
        ? 'connection'
        : pollerFailing && !finished
          ? 'poller'
          : '';
    if (next === reason) return;
    reason = next;
    onChange(reason);
  };

  setInterval(update, 500);

  async function readHealth() {
    if (!open || finished) return;
    try {
      const res = await fetch(withToken('/healthz'));
      const body = await res.json();
      const pollers = Array.isArray(body.pollers) ? body.pollers : [];
      const mine = pollers.filter((p) =>
        game.gameId
          ? p.poller === 'summary' && p.league === game.league && String(p.gameId) === String(game.gameId)
          : game.leagues.includes(p.league),
      );
      // Two failed polls in a row: one failure is a blip the next poll usually mends, and a mark
      // that flashes on and off over a broadcast is worse than none. `standby` pollers poll
      // nothing (another instance does) and never count.
      pollerFailing = mine.some((p) => p.state !== 'standby' && (p.failures ?? 0) >= FAILED_POLLS);
    } catch {
      // The daemon did not answer: the stream's state tells that story.
    }
    update();
  }
  setInterval(readHealth, HEALTH_EVERY_MS);

  return {
    get reason() {
      return reason;
    },
    /** The stream opened (true) or closed (false). */
    connected(isOpen) {
      if (open && !isOpen) disconnectedAt = Date.now();
      open = isOpen;
      if (isOpen) void readHealth();
      update();
    },
    /** A finished game's poller stops by design: that is no failure. */
    finish() {
      finished = true;
      update();
    },
  };
}
