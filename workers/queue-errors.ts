import type { Logger } from '../src/core/log.js';

/** Errors that mean "Redis is unreachable for now": ioredis reconnects, BullMQ carries on. */
const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|Connection is closed|Stream isn't writeable/i;
/**
 * A job whose keys vanished while it was processed: Redis lost its data (a restart without
 * persistence). The job is gone with it; nothing the worker can do, and not the worker's fault.
 */
const DATA_LOST_ERROR = /^Missing (key|lock) for job/;
/** A Redis outage makes BullMQ report every retry; one warning per this long is enough. */
const CONNECTION_WARN_EVERY_MS = 30_000;

interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Logs a BullMQ queue's or worker's 'error' events. A lost Redis connection is an expected,
 * self-healing condition: a warning (the first of each 30 s, with how many were folded into it);
 * anything else is an error.
 */
export function logQueueErrors(emitter: ErrorEmitter, logger: Logger, what: string): void {
  let lastWarn = -Infinity;
  let folded = 0;
  emitter.on('error', (err: Error) => {
    if (DATA_LOST_ERROR.test(err.message)) {
      logger.warn({ err: err.message }, `${what}: a job vanished from Redis (Redis lost its data?)`);
      return;
    }
    if (!CONNECTION_ERROR.test(err.message)) {
      logger.error({ err: err.message }, `${what} error`);
      return;
    }
    const now = Date.now();
    if (now - lastWarn < CONNECTION_WARN_EVERY_MS) {
      folded += 1;
      return;
    }
    logger.warn({ err: err.message, folded }, `${what}: Redis unreachable; reconnecting`);
    lastWarn = now;
    folded = 0;
  });
}
