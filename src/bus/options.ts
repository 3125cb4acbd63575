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

export const DEFAULT_PREFIX = 'courtside:';

/**
 * The default prefix on a Redis Cluster. Its hash tag puts every key of the log and game state in
 * one slot, so the commit script, MULTI and MGET touch one node and the log keeps one total order
 * (docs/decisions.md, "Redis Cluster").
 */
export const CLUSTER_PREFIX = '{courtside}:';

/** A prefix: letters, digits, `: . _ -`, with at most one `{hash tag}` (non-empty) anywhere in it. */
export const PREFIX_PATTERN = /^[A-Za-z0-9:._-]*(\{[A-Za-z0-9:._-]+\}[A-Za-z0-9:._-]*)?$/;

/** The `{tag}` part of a prefix, which decides the Cluster slot of every key under it; or undefined. */
export function hashTagOf(prefix: string): string | undefined {
  return /\{([^{}]+)\}/.exec(prefix)?.[1];
}

/**
 * The prefix to use on a Redis whose URL is of `topology`: on a Cluster an unset prefix becomes
 * `CLUSTER_PREFIX` and one without a hash tag is refused, as its keys would spread over slots and
 * every multi-key command would fail with CROSSSLOT. Elsewhere the prefix (or the default) as is.
 */
export function prefixForTopology(topology: string, prefix: string | undefined): string {
  if (topology !== 'cluster') return prefix ?? DEFAULT_PREFIX;
  if (prefix === undefined) return CLUSTER_PREFIX;
  if (hashTagOf(prefix) === undefined) {
    throw new InvalidOptionsError(
      `prefix ${JSON.stringify(prefix)} has no {hash tag}: on a Redis Cluster every key must share one slot, e.g. ${CLUSTER_PREFIX}`,
    );
  }
  return prefix;
}

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
