import { InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_LEAGUES } from '../core/leagues.js';
import { OFFSET_PATTERN, type Offset } from './types.js';

/**
 * Events kept per league at most: a safety cap on memory, not the retention itself (that is
 * `DEFAULT_RETENTION_MS`). A college Saturday makes 50,000-80,000 events in one league, so the cap
 * holds such a day with room; a full NBA slate (~6,000 a night) never comes near it.
 */
export const DEFAULT_RETENTION_PER_LEAGUE = 250_000;

/**
 * How long events are kept: 36 hours holds a whole day of games (noon tip-offs to West Coast
 * games ending after midnight) and the next morning, when clients that slept resume from the
 * night's last offset.
 */
export const DEFAULT_RETENTION_MS = 36 * 3_600_000;

/**
 * A time trim waits until the oldest event is this much older than the window (1% of it, at most
 * a minute), so it removes a chunk of events at a time rather than one per commit.
 */
export function timeTrimSlackMs(retentionMs: number): number {
  return Math.min(60_000, Math.floor(retentionMs / 100));
}

export function checkRetentionMs(retentionMs: number): number {
  if (!Number.isSafeInteger(retentionMs) || retentionMs < 1) {
    throw new InvalidOptionsError(
      `retentionMs must be a positive integer of milliseconds, got ${String(retentionMs)}`,
    );
  }
  return retentionMs;
}

/**
 * The log is one stream for every league (docs/decisions.md), so it keeps per-league × leagues:
 * the leagues polled by default.
 */
export const DEFAULT_RETENTION = DEFAULT_RETENTION_PER_LEAGUE * DEFAULT_LEAGUES.length;

/** Most events one `tail` batch or one `read` page carries: bounds a batch's memory and latency. */
export const TAIL_BATCH_LIMIT = 1_000;

/** Total log retention from a per-league figure (what configuration speaks in). */
export function retentionForLeagues(perLeague: number, leagues = DEFAULT_LEAGUES.length): number {
  return checkRetention(perLeague) * leagues;
}

export function checkRetention(retention: number): number {
  if (!Number.isSafeInteger(retention) || retention < 1) {
    throw new InvalidOptionsError(`retention must be a positive integer, got ${String(retention)}`);
  }
  return retention;
}

/** Rejects an offset that is not `<ms>-<n>` (Redis would refuse it, memory would misread it). */
export function checkOffset(offset: Offset | null, operation: string): void {
  if (offset !== null && !OFFSET_PATTERN.test(offset)) {
    throw new InvalidOptionsError(
      `bus.${operation}: invalid offset ${JSON.stringify(offset).slice(0, 40)}; expected <ms>-<n>`,
    );
  }
}

/** The log's two limits from a bus's options, checked, with their defaults. */
export function resolveRetention(options: {
  retention?: number | undefined;
  retentionMs?: number | undefined;
}): {
  retention: number;
  retentionMs: number;
} {
  return {
    retention: checkRetention(options.retention ?? DEFAULT_RETENTION),
    retentionMs: checkRetentionMs(options.retentionMs ?? DEFAULT_RETENTION_MS),
  };
}
