/**
 * How often one FastCast topic may resync: fresh checkpoints at most every `minMs` (a patch that
 * keeps failing must not loop), and a topic resynced `count` times within `windowMs` paused for
 * `pauseMs`, its game polled meanwhile. Pure: the caller passes the time and runs the timers.
 */

export interface ResyncLimit {
  readonly count: number;
  readonly windowMs: number;
  readonly pauseMs: number;
}

// A healthy topic resyncs now and then (a catch-up racing a newer checkpoint, a frame lost). One
// that resyncs every few seconds (a server numbering frames otherwise than the client expects,
// patches that never apply) would download a whole checkpoint and poll the summary each time,
// costing more than polling alone: after 10 in 2 minutes its game is polled for 10 minutes.
export const DEFAULT_RESYNC_LIMIT: ResyncLimit = { count: 10, windowMs: 120_000, pauseMs: 600_000 };

export interface ResyncLimiter {
  readonly limit: ResyncLimit;
  /**
   * Notes a resync of `name` at `at` (ms); true when that makes too many within the window: the
   * topic is then paused (`paused`) until `resume`, and its count starts again.
   */
  tooMany(name: string, at: number): boolean;
  /** How long (ms) from `at` the next checkpoint of `name` waits; that time is taken as its last. */
  wait(name: string, at: number): number;
  paused(name: string): boolean;
  /** Ends the pause of `name`; false when it was not paused (forgotten meanwhile). */
  resume(name: string): boolean;
  /** Forgets everything about `name`, its pause included. */
  forget(name: string): void;
}

export function createResyncLimiter(minMs: number, limit: ResyncLimit = DEFAULT_RESYNC_LIMIT): ResyncLimiter {
  // Each topic's last checkpoint asked (ms), its recent resyncs, and the topics paused.
  const lastResync = new Map<string, number>();
  const recentResyncs = new Map<string, number[]>();
  const pausedTopics = new Set<string>();
  return {
    limit,
    tooMany(name, at) {
      const times = (recentResyncs.get(name) ?? []).filter((t) => at - t < limit.windowMs);
      times.push(at);
      if (times.length < limit.count) {
        recentResyncs.set(name, times);
        return false;
      }
      recentResyncs.delete(name);
      pausedTopics.add(name);
      return true;
    },
    wait(name, at) {
      const wait = Math.max(0, (lastResync.get(name) ?? -Infinity) + minMs - at);
      lastResync.set(name, at + wait);
      return wait;
    },
    paused: (name) => pausedTopics.has(name),
    resume: (name) => pausedTopics.delete(name),
    forget(name) {
      lastResync.delete(name);
      recentResyncs.delete(name);
      pausedTopics.delete(name);
    },
  };
}
