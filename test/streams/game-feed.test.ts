import { describe, expect, it } from 'vitest';
import type { PollerStatus, PushFeedStatus } from '../../streams/engine-types.js';
import { follow, reportedStatus, startFollowing } from '../../streams/game-feed.js';
import { newStatus } from '../../streams/poller-status.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const poller = (state: PollerStatus['state']): PollerStatus => ({
  ...newStatus('summary', 'mens', '1', 3000),
  state,
});
const pushed = (source: 'push' | 'polling', state: string, since: number): PushFeedStatus => ({
  source,
  state,
  since: iso(since),
  reason: source === 'push' ? 'patch' : 'socket closed: code 1006',
});

describe('one word per game', () => {
  it('a game fed by push says push as its poller state and its feed, never polling beside push', () => {
    const out = reportedStatus(poller('polling'), pushed('push', 'push', 5_000), startFollowing(1_000));
    expect(out.state).toBe('push');
    expect(out.feed).toEqual({ source: 'push', state: 'push', since: iso(5_000), reason: 'patch' });
  });

  it('a polled game says polling, with the push link’s own state and reason', () => {
    const out = reportedStatus(
      poller('polling'),
      pushed('polling', 'fallen-back', 5_000),
      startFollowing(1_000),
    );
    expect(out.state).toBe('polling');
    expect(out.feed).toMatchObject({
      source: 'polling',
      state: 'fallen-back',
      reason: 'socket closed: code 1006',
    });
  });

  it('with push off the feed says polling, since the poller followed the game, and why', () => {
    const out = reportedStatus(poller('polling'), null, startFollowing(2_000));
    expect(out.state).toBe('polling');
    expect(out.feed).toEqual({ source: 'polling', state: 'polling', since: iso(2_000), reason: 'push off' });
  });

  it('a standby says standby, since it stood by, whatever its own push link does', () => {
    const standby = follow(startFollowing(1_000), true, 4_000);
    const out = reportedStatus(poller('standby'), pushed('push', 'push', 2_000), standby);
    expect(out.state).toBe('standby');
    expect(out.feed).toEqual({
      source: 'standby',
      state: 'standby',
      since: iso(4_000),
      reason: 'another instance holds the game',
    });
    // Standing by again keeps the first moment.
    expect(follow(standby, true, 9_000)).toBe(standby);
  });

  it('a game taken over is pushed since it was taken, not since the push link came up', () => {
    const taken = follow(follow(startFollowing(0), true, 1_000), false, 8_000);
    expect(reportedStatus(poller('polling'), pushed('push', 'push', 3_000), taken).feed?.since).toBe(
      iso(8_000),
    );
  });

  it('backoff and stopped keep their own state, beside the feed', () => {
    expect(reportedStatus(poller('backoff'), pushed('push', 'push', 0), startFollowing(0)).state).toBe(
      'backoff',
    );
    expect(reportedStatus(poller('stopped'), null, startFollowing(0)).state).toBe('stopped');
  });
});
