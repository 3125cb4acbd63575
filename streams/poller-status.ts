import type { League } from '../src/core/leagues.js';
import type { Logger } from '../src/core/log.js';
import { BusUnavailableError, CourtsideError } from '../src/core/errors.js';
import { pollErrors } from '../src/core/metrics.js';
import { backoffDelay } from '../src/core/backoff.js';
import type { PollerStatus } from './engine-types.js';

/**
 * The wait before a poll that failed on the bus is tried again. A failed Redis command has already
 * waited through its connection's reconnect attempts (at most 1 s apart), so Redis was away for
 * that long; once a failover or restart ends, the next try comes within this much more, instead of
 * a whole summary interval (or two, when the retry missed its tick) after it.
 */
export const BUS_RETRY_MS = 500;

/** An error's code and message, for status and logs (`INTERNAL` for anything not ours). */
export function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof CourtsideError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message };
  return { code: 'INTERNAL', message: String(error) };
}

export function newStatus(
  poller: PollerStatus['poller'],
  league: League,
  gameId: string | null,
  intervalMs: number,
): PollerStatus {
  return {
    poller,
    league,
    gameId,
    state: 'idle',
    gameState: null,
    intervalMs,
    lastSuccessAt: null,
    lastErrorAt: null,
    lastError: null,
    failures: 0,
    backoffMs: null,
  };
}

export interface PollerBook {
  /** Records a failed poll (status, metric, log); returns the delay before the next one. */
  failed(status: PollerStatus, error: unknown, baseMs: number): number;
  /** Records a successful poll: failures and backoff are cleared. */
  succeeded(status: PollerStatus): void;
}

export interface PollerBookOptions {
  logger: Logger;
  now(): number;
  /** Jitter source in [0, 1). */
  random(): number;
  backoffMaxMs: number;
}

/** Failure and success bookkeeping shared by the scoreboard and summary pollers. */
export function createPollerBook(options: PollerBookOptions): PollerBook {
  const { logger, now, random, backoffMaxMs } = options;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    failed(status, error, baseMs) {
      const info = errorInfo(error);
      status.failures++;
      status.lastError = info;
      status.lastErrorAt = iso(now());
      // Redis answers or fails within a second, and a holder that waits longer than its lease
      // loses the game: bus errors are retried soon (at most at the poll cadence), without growing;
      // upstream errors back off.
      // A blocked User-Agent stays blocked: polls wait the longest backoff at once, not hammering the edge.
      const delay =
        error instanceof BusUnavailableError
          ? Math.min(baseMs, BUS_RETRY_MS)
          : info.code === 'UPSTREAM_BLOCKED'
            ? backoffMaxMs
            : backoffDelay(status.failures - 1, { baseMs, maxMs: backoffMaxMs, random });
      status.state = 'backoff';
      status.backoffMs = delay;
      pollErrors.inc({ league: status.league, poller: status.poller, code: info.code });
      // A Redis outage fails every poll until it ends, and the bus logs the outage itself: the
      // first failure of a streak is a warning, the retries that follow it half a second apart
      // are only debug lines.
      const log =
        error instanceof BusUnavailableError && status.failures > 1
          ? logger.debug.bind(logger)
          : logger.warn.bind(logger);
      log(
        {
          league: status.league,
          gameId: status.gameId,
          poller: status.poller,
          code: info.code,
          failures: status.failures,
          backoffMs: delay,
        },
        `poll failed: ${info.message}`,
      );
      return delay;
    },
    succeeded(status) {
      if (status.failures > 0) {
        logger.info(
          { league: status.league, gameId: status.gameId, poller: status.poller, after: status.failures },
          'poller recovered',
        );
      }
      status.failures = 0;
      status.backoffMs = null;
      status.lastSuccessAt = iso(now());
    },
  };
}
