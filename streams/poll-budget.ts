import { TokenBucket } from '../src/core/token-bucket.js';
import type { League } from '../src/core/leagues.js';
import { liveBudgetRate } from '../src/core/metrics.js';
import { isOvertime, periodFormat } from '../src/core/periods.js';
import { clockSeconds } from './summary-header.js';

/**
 * ESPN's edge blocks an address that asks for about 55 summaries a second (measured): 30 leaves
 * room for the scoreboards, the on-demand lane and a second instance's retries. A pro night (a
 * dozen games at 3 s: 4 a second) never comes near it; a college Saturday (150+ games) does.
 */
export const DEFAULT_LIVE_BUDGET = 30;

/**
 * A game in its closing minutes or in overtime, or one someone watches, weighs this many normal
 * games in the share: its plays are the ones viewers wait for, so it stretches last.
 */
export const URGENT_WEIGHT = 4;

export interface PollBudgetOptions {
  /** Summary requests a second, shared by every live game of this instance. */
  ratePerSecond: number;
  /** The summary pollers' tick (the configured summary interval): effective intervals are multiples of it. */
  tickMs: number;
  now(): number;
}

/**
 * The live lane's budget of summary requests. Each game declares the interval it wants (the
 * summary interval, or push's reconciliation interval) and whether it is urgent; when the wanted
 * rates add up to more than the budget, each game gets a weighted fair share (water-filling: a game
 * that wants less than its share keeps its rate, the rest is split by weight) and its effective
 * interval stretches to match. Every game keeps a share, so every game advances: plays are diffed
 * from the whole summary, so a longer interval delays them but loses none.
 */
export interface PollBudget {
  readonly ratePerSecond: number;
  /**
   * Declares (or updates) what a game wants; `urgent`: served first (closing minutes or overtime,
   * or someone watching the game).
   */
  want(id: string, wantedMs: number, urgent: boolean): void;
  /** The game polls no more (stopped, or standing by): its share goes to the others. */
  drop(id: string): void;
  /** The game's effective interval, ms (its wanted one while the budget does not bind). */
  effectiveMs(id: string): number;
  /**
   * Whether the game's summary may be requested now: null when its effective interval has not
   * passed since its last request (within half a tick, as the ticks themselves drift), or the
   * budget is more than a tick in debt; else how long to wait before sending it (0: at once), the
   * request being counted. With `scheduled`, the caller's own schedule already spaced this request
   * (a pushed game's reconciliation, or its final corrections when the game ends): only the
   * budget's debt can refuse it.
   */
  tryRequest(id: string, scheduled?: boolean): { waitMs: number } | null;
}

interface Demand {
  wantedMs: number;
  urgent: boolean;
  lastAt: number | null;
  effectiveMs: number;
}

export function createPollBudget(options: PollBudgetOptions): PollBudget {
  const { ratePerSecond, tickMs, now } = options;
  if (!Number.isFinite(ratePerSecond) || ratePerSecond <= 0) {
    throw new RangeError(
      `ratePerSecond must be a positive number of requests a second, got ${ratePerSecond}`,
    );
  }
  // The shares keep the average under the budget; the bucket paces the requests of ticks that line
  // up (pollers started by one scoreboard round). It holds half a second's worth: 15 at the default,
  // so a pro night's games (15 at most, all ticking together) go out at once, as without a budget,
  // and no second sees more than 1.5 times the budget (45 by default, under ESPN's ~55). A request
  // it cannot pay for at once waits its turn on credit (at most a tick): refused instead, the same
  // game could lose the token to the same neighbours tick after tick.
  const bucket = new TokenBucket({ rate: ratePerSecond, burst: Math.max(1, ratePerSecond / 2) }, now());
  const games = new Map<string, Demand>();
  let dirty = false;
  liveBudgetRate.set(ratePerSecond);

  function share(): void {
    dirty = false;
    const list = [...games.values()].map((d) => ({
      d,
      rate: 1000 / d.wantedMs,
      weight: d.urgent ? URGENT_WEIGHT : 1,
    }));
    // Water-filling: the games wanting least per unit of weight are served in full first.
    list.sort((a, b) => a.rate / a.weight - b.rate / b.weight);
    let left = ratePerSecond;
    let weight = list.reduce((s, g) => s + g.weight, 0);
    for (const g of list) {
      const fair = (left * g.weight) / weight;
      const granted = Math.min(g.rate, fair);
      left -= granted;
      weight -= g.weight;
      // Ticks come every tickMs: a share between two ticks is rounded to the longer, so the
      // budget is never exceeded on average.
      const stretched = granted >= g.rate ? g.d.wantedMs : Math.ceil(1000 / granted / tickMs) * tickMs;
      g.d.effectiveMs = Math.max(g.d.wantedMs, stretched);
    }
  }

  return {
    ratePerSecond,
    want(id, wantedMs, urgent) {
      const d = games.get(id);
      if (d === undefined) {
        games.set(id, { wantedMs, urgent, lastAt: null, effectiveMs: wantedMs });
        dirty = true;
      } else if (d.wantedMs !== wantedMs || d.urgent !== urgent) {
        d.wantedMs = wantedMs;
        d.urgent = urgent;
        dirty = true;
      }
    },
    drop(id) {
      if (games.delete(id)) dirty = true;
    },
    effectiveMs(id) {
      if (dirty) share();
      return games.get(id)?.effectiveMs ?? tickMs;
    },
    tryRequest(id, scheduled = false) {
      if (dirty) share();
      const d = games.get(id);
      if (d === undefined) return null;
      const t = now();
      if (!scheduled && d.lastAt !== null && t - d.lastAt < d.effectiveMs - tickMs / 2) return null;
      const take = bucket.take(t, 1, tickMs);
      if (!take.ok) return null;
      d.lastAt = t + take.waitMs;
      return { waitMs: take.waitMs };
    },
  };
}

/** Seconds left in a game under which its closing minutes are urgent: the plays that decide it. */
export const CLOSING_SECONDS = 300;

/** The game is in overtime, or in its last regulation period with 5:00 or less on the clock. */
export function isUrgent(league: League, period: number | null, clock: string | null): boolean {
  if (period === null) return false;
  if (isOvertime(league, period)) return true;
  if (period < periodFormat(league).regulation) return false;
  const left = clockSeconds(clock);
  return left !== null && left <= CLOSING_SECONDS;
}
