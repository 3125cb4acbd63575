import { BusClosedError, BusUnavailableError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';
import { defineBusCommands, type BusCommands } from './redis-scripts.js';
import type { RedisTarget } from './redis-url.js';
import { watchConnection, withReason } from './redis-watch.js';

/** The bus's command connection, with its scripts defined as commands. */
export type CommandRedis = RedisConnection & BusCommands;

/** Runs a command, turning its failure into the bus's errors (closed, or unavailable with the reason). */
export type Run = <T>(operation: string, fn: () => Promise<T>) => Promise<T>;

/** Normal commands give up after this many reconnect attempts, so callers see an error in < 1 s and back off. */
const MAX_RETRIES_PER_REQUEST = 2;

/**
 * Opens the connection every bus command but the tails' reads goes over, and the `run` wrapping
 * them: a failed command names why the connection is down, once the bus closed it says so instead.
 */
export function connectCommands(
  target: RedisTarget,
  logger: Logger,
  closed: () => boolean,
): { cmd: CommandRedis; run: Run } {
  const cmd = connectRedis(target, {
    name: 'courtside-bus',
    maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST,
  }) as CommandRedis;
  defineBusCommands(cmd);
  watchConnection(cmd, 'commands', logger, closed);
  /** Why the command connection is down: a failed command only says that ioredis gave up retrying. */
  let downReason: string | undefined;
  cmd.on('error', (err: Error) => (downReason = err.message));
  cmd.on('ready', () => (downReason = undefined));

  async function run<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    if (closed()) throw new BusClosedError(operation);
    try {
      return await fn();
    } catch (err) {
      if (closed()) throw new BusClosedError(operation);
      throw new BusUnavailableError(operation, { cause: withReason(err, downReason) });
    }
  }

  return { cmd, run };
}

/** A TTL in whole milliseconds of at least 1, as Redis's PX and PEXPIRE take it. */
export function ttlArg(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}
