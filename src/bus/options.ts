import { InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_LEAGUES } from '../core/leagues.js';
import { OFFSET_PATTERN, type Offset } from './types.js';

/** Events kept per league: a full NBA slate produces ~6,000 events a night, so this holds weeks. */
export const DEFAULT_RETENTION_PER_LEAGUE = 100_000;

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
