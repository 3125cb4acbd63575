import { randomUUID } from 'node:crypto';
import type { Logger } from '../core/log.js';
import type { RepeatedErrorLog } from '../core/repeated-log.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import type { BusCommands } from './redis-scripts.js';
import { compareOffsets, type Offset } from './types.js';

/** The epoch script as the command connection defines it (see EPOCH_SCRIPT). */
export type EpochCommand = BusCommands['courtsideEpoch'];

/** The newest id this instance has seen, reported by every read, tail and commit. */
export interface EpochWatch {
  saw(offset: Offset | null | undefined): void;
  onDataLost(listener: () => void): () => void;
  clear(): void;
}

/**
 * Remembers the newest id this instance has seen and the dataset's epoch, and on every (re)connect
 * compares the epoch: another one means Redis lost its data, so EPOCH_SCRIPT raises the
 * trimmed-through mark to that id and the listeners are told.
 */
export function watchEpoch(
  cmd: RedisConnection,
  epochCommand: EpochCommand,
  keys: RedisKeys,
  logger: Logger,
  repeats: RepeatedErrorLog,
): EpochWatch {
  const listeners = new Set<() => void>();
  let highWater: Offset | null = null;
  let epoch = '';
  cmd.on('ready', () => {
    epochCommand(keys.epoch, keys.trimmed, keys.stream, randomUUID(), epoch, highWater ?? '')
      .then((current) => {
        if (epoch !== '' && current !== epoch) {
          logger.warn(
            { lostThrough: highWater },
            'bus: Redis lost its data; older offsets now count as trimmed',
          );
          for (const listener of listeners) listener();
        }
        epoch = current;
      })
      // Without it a Redis that lost its data goes unnoticed, and resumes across the loss look exact.
      .catch((err: Error) =>
        repeats.log(
          'warn',
          err.message,
          { err: err.message },
          'bus: epoch check failed; retried on reconnect',
        ),
      );
  });
  return {
    saw(offset) {
      if (offset && offset !== '0-0' && (highWater === null || compareOffsets(offset, highWater) > 0)) {
        highWater = offset;
      }
    },
    onDataLost(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      listeners.clear();
    },
  };
}

export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * "Reached the max retries per request limit (which is 2)" tells a reader nothing about Redis:
 * when the connection's own error is known (refused, unknown host...), that is the cause told.
 */
export function withReason(err: unknown, downReason: string | undefined): unknown {
  if (downReason === undefined || !(err instanceof Error) || err.name !== 'MaxRetriesPerRequestError') {
    return err;
  }
  return new Error(`Redis unreachable: ${downReason}`, { cause: err });
}

/** Logs a lost connection once and its recovery once, however many reconnect attempts lie between. */
export function watchConnection(
  conn: RedisConnection,
  role: string,
  logger: Logger,
  closing: () => boolean,
): void {
  let down = false;
  const lost = (reason: string): void => {
    if (down || closing()) return;
    down = true;
    const log = role === 'commands' ? logger.warn.bind(logger) : logger.debug.bind(logger);
    log({ role, reason }, 'bus: Redis connection lost; reconnecting');
  };
  // Without an 'error' listener ioredis prints every failed attempt itself.
  conn.on('error', (err: Error) => lost(err.message));
  conn.on('close', () => lost('connection closed'));
  conn.on('ready', () => {
    if (!down) return;
    down = false;
    const log = role === 'commands' ? logger.info.bind(logger) : logger.debug.bind(logger);
    log({ role }, 'bus: Redis connection recovered');
  });
}
