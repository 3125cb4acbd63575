import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * The FastCast client's timers and clock, all on one rxjs scheduler: `asyncScheduler` in the
 * daemon, a virtual-time one in tests, so heartbeats, backoffs and limits can be stepped through
 * without waiting for them. Every timer is cancelled when the client closes, and none fires after.
 */
export interface ClientTimers {
  /** The scheduler's clock (ms). */
  now(): number;
  /** Runs `fn` once after `ms`. */
  later(ms: number, fn: () => void): void;
  /** Runs `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Cancels every timer; later ones are not started. */
  close(): void;
}

export function createClientTimers(scheduler: SchedulerLike): ClientTimers {
  const pending = new Set<Subscription>();
  let closed = false;

  const start = (ms: number, fn: () => void, repeat: boolean): Subscription | undefined => {
    if (closed) return undefined;
    let fired = false;
    let sub: Subscription | undefined = undefined;
    sub = scheduler.schedule(function () {
      if (closed) return;
      if (repeat) {
        this.schedule(undefined, ms);
      } else {
        fired = true;
        if (sub) pending.delete(sub);
      }
      fn();
    }, ms);
    // A scheduler may run a due action inside `schedule` itself: nothing is left to cancel then.
    if (!fired) pending.add(sub);
    return sub;
  };

  return {
    now: () => scheduler.now(),
    later(ms, fn) {
      start(ms, fn, false);
    },
    every(ms, fn) {
      const sub = start(ms, fn, true);
      return () => {
        if (!sub) return;
        sub.unsubscribe();
        pending.delete(sub);
      };
    },
    close() {
      closed = true;
      for (const sub of pending) sub.unsubscribe();
      pending.clear();
    },
  };
}
