import type { Logger } from '../src/core/log.js';
import { RepeatedErrorLog } from '../src/core/repeated-log.js';

/** Errors that mean "Redis is unreachable for now": ioredis reconnects, BullMQ carries on. */
const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|Connection is closed|Stream isn't writeable/i;
/**
 * A job whose keys vanished while it was processed: Redis lost its data (a restart without
 * persistence). The job is gone with it; nothing the worker can do, and not the worker's fault.
 */
const DATA_LOST_ERROR = /^Missing (key|lock) for job/;
interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Logs a BullMQ queue's or worker's 'error' events, each kind once per 30 s with how often it
 * came back (`RepeatedErrorLog`): a lost Redis connection is an expected, self-healing condition
 * (a warning); a job whose data vanished is a warning; anything else (a script Redis refuses, a
 * `CROSSSLOT` on a misconfigured Cluster) is an error. Returns the log, for the caller's own
 * repeated errors (failed jobs) to fold the same way.
 */
export function logQueueErrors(emitter: ErrorEmitter, logger: Logger, what: string): RepeatedErrorLog {
  const repeats = new RepeatedErrorLog(logger);
  emitter.on('error', (err: Error) => {
    if (DATA_LOST_ERROR.test(err.message)) {
      repeats.log(
        'warn',
        err.message,
        { err: err.message },
        `${what}: a job vanished from Redis (Redis lost its data?)`,
      );
    } else if (CONNECTION_ERROR.test(err.message)) {
      // Every form of "unreachable" is one condition: refused, reset and closed fold together.
      repeats.log('warn', 'unreachable', { err: err.message }, `${what}: Redis unreachable; reconnecting`);
    } else {
      repeats.log('error', err.message, { err: err.message }, `${what} error`);
    }
  });
  return repeats;
}
