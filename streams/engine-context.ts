import { setMaxListeners } from 'node:events';
import type { SchedulerLike } from 'rxjs';
import type { Bus } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import type { Logger } from '../src/core/log.js';
import type { CustodyTimings } from './custody.js';
import { custodyTimings, type ResolvedPush } from './engine-config.js';
import type { EngineIntervals, EngineOptions } from './engine-types.js';
import { createPollBudget, type PollBudget } from './poll-budget.js';
import { createPollerBook, type PollerBook } from './poller-status.js';

/** What the engine's pollers share: its options resolved, its clock, and its lifecycle. */
export interface EngineContext {
  readonly client: EngineOptions['client'];
  readonly bus: Bus;
  /** All timing: intervals, backoff and the clock (`now`). */
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly intervals: EngineIntervals;
  /** Lease owner name. */
  readonly instanceId: string;
  readonly timings: CustodyTimings;
  readonly finishedGameTtlMs: number;
  readonly book: PollerBook;
  /** The live lane's budget of summary requests, shared by every game. */
  readonly budget: PollBudget;
  /** Someone watches the game (EngineOptions.watched); always false without it. */
  watched(league: League, gameId: string): boolean;
  /** FastCast for live games, with the reconciliation interval resolved; null: polling only. */
  readonly push: ResolvedPush | null;
  /** Aborted by `close()`: every upstream call in flight stops. */
  readonly signal: AbortSignal;
  now(): number;
  /** True from the moment the engine starts closing. */
  isClosed(): boolean;
  /** Registers work that closing waits for (a bounded time); returns the same promise. */
  track<T>(promise: Promise<T>): Promise<T>;
}

/** The context with the lifecycle controls only the engine itself uses. */
export interface EngineRuntime extends EngineContext {
  /** From now on `isClosed()` is true, and every upstream call in flight is aborted. */
  markClosed(): void;
  /** Resolves once every tracked promise settled, or after `ms` (real time) at the latest. */
  drain(ms: number): Promise<void>;
}

export interface EngineContextOptions {
  client: EngineOptions['client'];
  bus: Bus;
  scheduler: SchedulerLike;
  logger: Logger;
  intervals: EngineIntervals;
  instanceId: string;
  finishedGameTtlMs: number;
  /** Default null: polling only. */
  push?: EngineContext['push'];
  /** Jitter source in [0, 1). */
  random: () => number;
  /** Summary requests a second (resolved). */
  liveBudget: number;
  watched?: EngineOptions['watched'];
}

export function createEngineContext(options: EngineContextOptions): EngineRuntime {
  const { scheduler, logger, intervals } = options;
  const inflight = new Set<Promise<unknown>>();
  const abort = new AbortController();
  // One signal is shared by every in-flight call (one per live game): not a listener leak.
  setMaxListeners(0, abort.signal);
  let closed = false;
  const now = () => scheduler.now();
  return {
    client: options.client,
    bus: options.bus,
    scheduler,
    logger,
    intervals,
    instanceId: options.instanceId,
    timings: custodyTimings(intervals),
    finishedGameTtlMs: options.finishedGameTtlMs,
    push: options.push ?? null,
    book: createPollerBook({ logger, now, random: options.random, backoffMaxMs: intervals.backoffMaxMs }),
    budget: createPollBudget({ ratePerSecond: options.liveBudget, tickMs: intervals.summaryMs, now }),
    watched: options.watched ?? (() => false),
    signal: abort.signal,
    now,
    isClosed: () => closed,
    track(promise) {
      inflight.add(promise);
      void promise.then(
        () => inflight.delete(promise),
        () => inflight.delete(promise),
      );
      return promise;
    },
    markClosed() {
      closed = true;
      abort.abort();
    },
    async drain(ms) {
      await Promise.race([
        Promise.allSettled([...inflight]),
        new Promise((resolve) => setTimeout(resolve, ms).unref()),
      ]);
    },
  };
}
