/**
 * A token bucket for FastCast subscriptions. Every `S` frame brings an `H` and with it a checkpoint
 * download (a whole summary, 0.4-0.9 MB, fetched and parsed): a slate whose games all go live at
 * once (165 on a March Saturday), or a reconnect that subscribes every topic again, would otherwise
 * send them all in one tick, download them all in the same second and stall the event loop the
 * plays are waiting on. Up to `burst` run at once, then `ratePerSecond`; a key queued twice runs
 * once, with the latest function, in its first place.
 */

import { TokenBucket } from '../core/token-bucket.js';

export interface PacerOptions {
  readonly ratePerSecond: number;
  readonly burst: number;
  readonly now: () => number;
  /** Runs `fn` after `ms` (the caller's timers, cleared when it closes). */
  readonly later: (ms: number, fn: () => void) => void;
}

export interface Pacer {
  /** Runs `fn` now if a token is left, else once one is, keyed by `key`. */
  run(key: string, fn: () => void): void;
  /** Drops `key`'s queued function, if any. */
  forget(key: string): void;
  /** Drops every queued function (the socket they were for is gone). */
  clear(): void;
  readonly queued: number;
}

export class PacerOptionsError extends Error {
  readonly code = 'PACER_OPTIONS';
}

export function createPacer(options: PacerOptions): Pacer {
  const { ratePerSecond, burst, now, later } = options;
  if (!(Number.isFinite(ratePerSecond) && ratePerSecond > 0))
    throw new PacerOptionsError(`ratePerSecond: expected a positive number, got ${ratePerSecond}`);
  if (!(Number.isInteger(burst) && burst >= 1))
    throw new PacerOptionsError(`burst: expected a whole number of at least 1, got ${burst}`);
  const bucket = new TokenBucket({ rate: ratePerSecond, burst }, now());
  let timerDue = false;
  const queue = new Map<string, () => void>();

  const drain = (): void => {
    timerDue = false;
    for (const [key, fn] of queue) {
      const take = bucket.take(now());
      if (!take.ok) {
        schedule(take.retryAfterMs);
        return;
      }
      queue.delete(key);
      fn();
    }
  };

  const schedule = (ms: number): void => {
    if (timerDue) return;
    timerDue = true;
    later(ms, drain);
  };

  return {
    run(key, fn) {
      if (queue.size === 0) {
        const take = bucket.take(now());
        if (take.ok) {
          fn();
          return;
        }
        queue.set(key, fn);
        schedule(take.retryAfterMs);
        return;
      }
      queue.set(key, fn);
    },
    forget(key) {
      queue.delete(key);
    },
    clear() {
      queue.clear();
    },
    get queued() {
      return queue.size;
    },
  };
}
