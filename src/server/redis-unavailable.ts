/**
 * True when `err` (or an error it was caused by) says Redis did not answer: the bus's
 * `BUS_UNAVAILABLE`, or the errors ioredis gives while it reconnects. Such a request failed
 * because of Redis, not because of the daemon: it answers 503 `REDIS_UNAVAILABLE`, to be retried.
 */
export function isRedisUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === 'BUS_UNAVAILABLE') return true;
    if (e.name === 'MaxRetriesPerRequestError') return true;
    if (/^Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET/.test(e.message)) return true;
  }
  return false;
}

/** Seconds a client should wait before retrying a request that found Redis away. */
export const REDIS_RETRY_AFTER_S = 5;
