import { InvalidOptionsError } from '../src/core/errors.js';
import type { CustodyTimings } from './custody.js';
import { DEFAULT_PREVIOUS_DAY_UNTIL, parseEasternTime } from './board-days.js';
import { DEFAULT_LIVE_BUDGET } from './poll-budget.js';
import type { EngineIntervals, EngineOptions, EnginePush } from './engine-types.js';

export const DEFAULT_INTERVALS: Readonly<Omit<EngineIntervals, 'leaseTtlMs' | 'backoffBaseMs'>> = {
  summaryMs: 3_000,
  scoreboardLiveMs: 10_000,
  scoreboardGameDayMs: 60_000,
  scoreboardIdleMs: 300_000,
  // One minute: long enough to spare an upstream that is down, short enough to notice recovery.
  backoffMaxMs: 60_000,
};
// The floor for the summary interval: polling faster gains nothing and only hammers the upstream.
export const MIN_SUMMARY_INTERVAL_MS = 1_000;
// A lease outlives two missed renewals, so one slow poll does not hand the game over.
const LEASE_TTL_FACTOR = 3;
// A copy of a game whose lease is gone is kept this many lease TTLs, in case Redis loses the game
// meanwhile and the copy has to be offered.
const ORPHAN_GRACE_FACTOR = 5;
// A game whose stored state vanished (Redis restarted empty): every instance with a copy offers it,
// and the newest copy is written back once every copy had time to be offered. Every instance learns
// of the loss when its bus reconnects (ioredis retries at most 1 s apart, so they reconnect within
// 1 s of each other; 2 s leaves a margin) and offers every copy at once; a poll that finds the game missing offers too,
// and the next poll is at most a summary interval away. Two summary intervals and twice the
// reconnect spread cover both with a margin, without the five lease TTLs (45 s by default) that
// kept games and live events away that long after every restart. One with no copy waits twice as
// long, and until no offer stands, before it starts the game over (re-emitting its history under
// the same ids).
const RECONNECT_SPREAD_MS = 2_000;
const OFFER_WAIT_POLLS = 2;
export const DEFAULT_FINISHED_GAME_TTL_MS = 24 * 3_600_000;
// While push is healthy the summary is only a check on it: four polls a minute instead of twenty.
export const DEFAULT_RECONCILE_MS = 15_000;

/** The intervals with defaults filled in; throws `InvalidOptionsError` naming a bad one. */
export function resolveIntervals(options: EngineOptions): EngineIntervals {
  const given = options.intervals ?? {};
  const summaryMs = given.summaryMs ?? DEFAULT_INTERVALS.summaryMs;
  const out: EngineIntervals = {
    ...DEFAULT_INTERVALS,
    backoffBaseMs: summaryMs,
    leaseTtlMs: summaryMs * LEASE_TTL_FACTOR,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
    summaryMs,
  };
  for (const [name, value] of Object.entries(out)) positiveMs(`intervals.${name}`, value);
  if (out.summaryMs < MIN_SUMMARY_INTERVAL_MS && options.allowFastIntervals !== true) {
    throw new InvalidOptionsError(
      `intervals.summaryMs must be at least ${MIN_SUMMARY_INTERVAL_MS} ms, got ${out.summaryMs} (allowFastIntervals is for tests)`,
    );
  }
  return out;
}

/** `finishedGameTtlMs` with its default; throws `InvalidOptionsError` when it is not positive. */
export function resolveFinishedGameTtl(options: EngineOptions): number {
  return positiveMs('finishedGameTtlMs', options.finishedGameTtlMs ?? DEFAULT_FINISHED_GAME_TTL_MS);
}

/** How long copies wait and are kept after Redis lost a game, from the lease TTL. */
export function custodyTimings(intervals: EngineIntervals): CustodyTimings {
  const graceMs = ORPHAN_GRACE_FACTOR * intervals.leaseTtlMs;
  const offerWaitMs = Math.min(graceMs, OFFER_WAIT_POLLS * intervals.summaryMs + 2 * RECONNECT_SPREAD_MS);
  // An owner in its longest backoff still renews its offer before the offer lapses.
  return { graceMs, offerWaitMs, offerTtlMs: intervals.backoffMaxMs + graceMs };
}

/**
 * `previousDayUntil` (Eastern `HH:MM`, default 06:00) as minutes after Eastern midnight; throws
 * `InvalidOptionsError` naming the option and the expected form.
 */
export function resolvePreviousDayUntil(options: EngineOptions): number {
  return parseEasternTime(options.previousDayUntil ?? DEFAULT_PREVIOUS_DAY_UNTIL, 'previousDayUntil');
}

/** The push options with the reconciliation interval resolved. */
export interface ResolvedPush {
  readonly connect: EnginePush['connect'];
  readonly reconcileMs: number;
}

/** The push options resolved; null when push is off. */
export function resolvePush(options: EngineOptions): ResolvedPush | null {
  if (options.push === undefined) return null;
  const reconcileMs = positiveMs('push.reconcileMs', options.push.reconcileMs ?? DEFAULT_RECONCILE_MS);
  return { connect: options.push.connect, reconcileMs };
}

/** `value` when it is a positive number of ms; else an `InvalidOptionsError` naming the option. */
function positiveMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidOptionsError(`${name} must be a positive number of ms, got ${String(value)}`);
  }
  return value;
}

/** The live budget in summary requests a second: a positive number, default `DEFAULT_LIVE_BUDGET`. */
export function resolveLiveBudget(options: EngineOptions): number {
  const value = options.liveBudget ?? DEFAULT_LIVE_BUDGET;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidOptionsError(
      `liveBudget must be a positive number of requests a second, got ${String(value)}`,
    );
  }
  return value;
}
