import type { JsonObject } from './espn-shapes.js';
import type { GameState } from './game-status.js';

/**
 * A replay's timeline: when each play of the finished summary is revealed (from its wallclock,
 * times the replay's speed), and so how many plays are out at a moment and whether the game is
 * before, in or after play.
 */

/** When a replay reveals each play of its finished summary. */
export interface RevealSchedule {
  /** Per play, in payload order: game ms after the first play at which it is revealed. */
  readonly offsets: readonly number[];
  /**
   * Payload indexes in reveal order: by offset, ties in payload order. A moment reveals a prefix
   * of it, and plays of equal offset always together.
   */
  readonly order: readonly number[];
}

const wallclockMs = (play: JsonObject): number => {
  const t = typeof play.wallclock === 'string' ? Date.parse(play.wallclock) : NaN;
  return Number.isFinite(t) ? t : NaN;
};

/**
 * The plays' reveal schedule, from their wallclocks: a play without one follows the one before it.
 * ESPN enters some plays late, so the order can differ from the payload's (the list order).
 */
export function revealSchedule(plays: readonly JsonObject[]): RevealSchedule {
  const raw = plays.map(wallclockMs);
  const t0 = Math.min(...raw.filter(Number.isFinite));
  let previous = 0;
  const offsets = raw.map((t) => (previous = Number.isFinite(t) ? t - t0 : previous));
  const order = offsets.map((_, i) => i).sort((a, b) => (offsets[a] ?? 0) - (offsets[b] ?? 0) || a - b);
  return { offsets, order };
}

export interface ReplayTimeline {
  /** Clock time (ms) the last play is revealed. */
  readonly endAt: number;
  /** How many plays are revealed at `now`; -1 before the game starts. */
  revealedCount(now: number): number;
  stateOf(count: number): GameState;
  /** Payload indexes of the first `count` plays revealed, in reveal order. */
  revealed(count: number): number[];
  /**
   * Once `count` plays are revealed, the latest of them in payload (game) order: status, clock and
   * score come from it, so a play stamped early never makes the score go back when its predecessor
   * appears.
   */
  latestInGameOrder(count: number): number;
  /** Game ms after the first play at which the play at payload index `i` is revealed. */
  offsetOf(i: number): number;
}

export function replayTimeline(plays: readonly JsonObject[], startAt: number, speed: number): ReplayTimeline {
  const { offsets, order } = revealSchedule(plays);
  const sortedOffsets = order.map((i) => offsets[i] ?? 0);
  const lastOffset = sortedOffsets[sortedOffsets.length - 1] ?? 0;
  let runningMax = 0;
  const lastInGameOrder = order.map((i) => (runningMax = Math.max(runningMax, i)));
  return {
    endAt: startAt + lastOffset / speed,
    revealedCount(now) {
      if (now < startAt) return -1;
      const elapsed = (now - startAt) * speed;
      let lo = 0;
      let hi = sortedOffsets.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((sortedOffsets[mid] ?? 0) <= elapsed) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
    stateOf(count) {
      if (count < 0) return 'pre';
      return count >= plays.length ? 'post' : 'in';
    },
    revealed: (count) => order.slice(0, Math.max(0, count)),
    latestInGameOrder: (count) => lastInGameOrder[count - 1] ?? 0,
    offsetOf: (i) => offsets[i] ?? 0,
  };
}
