import type { PollerStatus, PushFeedStatus } from './engine-types.js';

/**
 * How this instance follows a game, in one word, the same wherever it is reported (`/healthz`,
 * `/v1/games/live`, the home page, `/metrics`): `push` when FastCast feeds the game here, `polling`
 * when its summary does, `standby` when another instance holds the game's lease and feeds it. A
 * poller's own state says the same word: a game fed by push is never reported as `polling`.
 */

/** Whether this instance stands by for a game or follows it itself, and since when (ms). */
export interface Following {
  readonly standby: boolean;
  readonly since: number;
}

/** The game's poller started: it follows the game itself until a lease says otherwise. */
export const startFollowing = (now: number): Following => ({ standby: false, since: now });

/** Another instance holds the game (`standby`), or this one does again; unchanged if so already. */
export const follow = (f: Following, standby: boolean, now: number): Following =>
  f.standby === standby ? f : { standby, since: now };

export const STANDBY_REASON = 'another instance holds the game';
export const PUSH_OFF_REASON = 'push off';
/** Push's reason for a game this instance stopped feeding (standby, or its poller stopped). */
export const NOT_FED_REASON = 'unsubscribed: not fed here (standby, or the poller stopped)';

/**
 * The poller's status as reported: its `feed` and, for a game fed by push, the state `push`.
 * `push`: the game's feed as its push health says (push-state.ts), null when push is off.
 */
export function reportedStatus(
  status: PollerStatus,
  push: PushFeedStatus | null,
  following: Following,
): PollerStatus {
  const feed = feedStatus(status, push, following);
  const state = status.state === 'polling' && feed.source === 'push' ? 'push' : status.state;
  return { ...status, state, feed };
}

function feedStatus(status: PollerStatus, push: PushFeedStatus | null, following: Following): PushFeedStatus {
  const iso = (ms: number): string => new Date(ms).toISOString();
  if (status.state === 'standby')
    return { source: 'standby', state: 'standby', since: iso(following.since), reason: STANDBY_REASON };
  if (push === null)
    return { source: 'polling', state: 'polling', since: iso(following.since), reason: PUSH_OFF_REASON };
  // Push may have fed the game since before this instance took it over: here, it is since then.
  return { ...push, since: iso(Math.max(Date.parse(push.since), following.since)) };
}
