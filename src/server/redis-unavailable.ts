import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/log.js';
import { sendError } from './http-types.js';

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

/**
 * Answers a request whose handler threw: 503 `REDIS_UNAVAILABLE` (logged as a warning) when Redis
 * was away, which ends by itself, else 500 `INTERNAL` (logged as an error), a fault of the daemon.
 * A response already under way is cut instead.
 */
export function answerFailedRequest(
  err: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
): void {
  const path = req.url?.split('?')[0];
  const redis = isRedisUnavailable(err);
  if (redis) logger.warn({ err: (err as Error).message, path }, 'request failed: Redis unavailable');
  else logger.error({ err, path }, 'request handler failed');
  if (res.headersSent) res.destroy();
  else if (redis) {
    sendError(res, 503, 'REDIS_UNAVAILABLE', 'Redis is unavailable; retry shortly', {
      headers: { 'retry-after': String(REDIS_RETRY_AFTER_S) },
    });
  } else sendError(res, 500, 'INTERNAL', 'internal server error');
}
