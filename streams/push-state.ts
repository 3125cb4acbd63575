import { Subject } from 'rxjs';
import type { Logger } from '../src/core/log.js';
import type { GameKey } from '../src/bus/types.js';
import type { PushFeedStatus } from './engine-types.js';
import { feedOf, initialPushHealth, type PushHealth } from './push-health.js';

/** What game-document.ts keeps of one game's push (none when push is off). */
export interface PushState {
  health: PushHealth;
  /**
   * The newest document push delivered. Kept after push fails, until a polled summary at least as
   * new replaces it: an older poll is reconciled against it (summary-merge.ts).
   */
  doc: unknown;
  /** `doc` has not been diffed yet. */
  pending: boolean;
  /** When the summary was last polled (null: never). */
  lastPollAt: number | null;
  /** Wakes the game's follower for a pending document: no timer is waited on. */
  readonly wake: Subject<void>;
  readonly status: PushFeedStatus;
}

export function newPushState(now: number): PushState {
  const health = initialPushHealth(now);
  return {
    health,
    doc: undefined,
    pending: false,
    lastPollAt: null,
    wake: new Subject<void>(),
    status: statusOf(health),
  };
}

const statusOf = (h: PushHealth): PushFeedStatus => ({
  source: feedOf(h),
  state: h.name,
  since: new Date(h.since).toISOString(),
  reason: h.reason,
});

/** Stores the game's new push health; a move between push and polling is logged with its reason. */
export function setHealth(push: PushState, next: PushHealth, key: GameKey, logger: Logger): void {
  const before = push.health;
  if (next === before) return;
  push.health = next;
  Object.assign(push.status, statusOf(next));
  if (feedOf(before) !== feedOf(next))
    logger.info(
      { ...key, from: before.name, to: next.name, reason: next.reason },
      `game now fed by ${feedOf(next)}: ${next.reason}`,
    );
}
