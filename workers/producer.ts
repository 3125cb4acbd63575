import { Queue } from 'bullmq';
import type { RedisConnection as Redis } from '../src/bus/redis-connection.js';
import type { GameEvent } from '../src/model/events.js';
import { Backoff } from '../src/core/backoff.js';
import { silentLogger, type Logger } from '../src/core/log.js';
import { queueDepth } from '../src/core/metrics.js';
import { EventBuffer } from './event-buffer.js';
import { EVENTS_QUEUE, bullPrefix, createRedisConnection, prefixForRedis, toJobId } from './queues.js';

export interface EventProducerOptions {
  redisUrl: string;
  /** Project key prefix, default `courtside:`. */
  prefix?: string;
  /**
   * Events held in memory while Redis is unreachable. Default 10,000: a full slate of ~15 live
   * games emits well under 10 events/s in all, so this rides out a Redis outage of several minutes
   * (a restart or fail-over) in about 10 MB.
   */
  bufferLimit?: number;
  logger?: Logger;
  /** Events per `addBulk` call when draining. */
  batchSize?: number;
  /**
   * First wait before retrying after a failed add, when Redis does not announce it is back sooner;
   * later waits double (jittered) up to `RETRY_CAP_MS`.
   */
  retryDelayMs?: number;
}

export interface ProducerStats {
  /** Events held locally, not yet acknowledged by Redis. */
  buffered: number;
  /** Events acknowledged by Redis (duplicates included: BullMQ ignores a known jobId). */
  enqueued: number;
  /** Events dropped because the buffer was full. */
  dropped: number;
  /** True from the first failed add until the buffer has drained. */
  buffering: boolean;
}

export interface EventProducer {
  /** Queues the event; never throws and never waits (the caller is the streaming path). */
  add(event: GameEvent): void;
  /** Resolves once everything added so far is in Redis (or the producer closed). */
  flush(): Promise<void>;
  stats(): ProducerStats;
  /** Flushes for a moment, then closes the connection. Idempotent. */
  close(): Promise<void>;
}

// Completed event jobs only matter for jobId de-duplication of a restart's replays; an hour of a
// full slate is far below 50,000. Failed ones are kept a week for inspection, bounded the same way.
export const EVENT_JOB_OPTIONS = {
  removeOnComplete: { age: 3600, count: 50_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  // A failed evaluation is almost always a Redis hiccup: a few quick retries are enough.
  attempts: 5,
  backoff: { type: 'exponential', delay: 500 },
} as const;

const BUFFER_GAUGE = `${EVENTS_QUEUE}:buffer`;
// One addBulk is one Redis round trip with a Lua script per job; 500 keeps each call well under a second.
const DEFAULT_BATCH = 500;
// A healthy addBulk of 500 jobs takes milliseconds; 5 s means Redis is not answering.
const ADD_TIMEOUT_MS = 5_000;
// Retries of a failing add slow to one every 10 s at most: a Redis that refuses every add (full,
// read-only, misconfigured) is not hammered, and one that comes back announces it ('ready') anyway.
const RETRY_CAP_MS = 10_000;
// At most this long on close() to push out what is still buffered.
const CLOSE_FLUSH_MS = 3_000;

/**
 * Adds every event to the BullMQ queue `courtside-events`, jobId = the event id (mapped by
 * `toJobId`), so a duplicate from a restart or fail-over is queued once. All adds go through one
 * ordered in-memory buffer that a single pump drains with `addBulk`; while Redis is unreachable the
 * buffer grows up to `bufferLimit` and then drops its OLDEST events (counted and logged): the worker
 * drops alerts older than its staleness horizon anyway, so the newest events are the valuable ones.
 */
export function createEventProducer(options: EventProducerOptions): EventProducer {
  const logger = options.logger ?? silentLogger;
  const limit = Math.max(1, options.bufferLimit ?? 10_000);
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  // Quick enough to notice Redis back within a second even if the 'ready' event is missed.
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const backoff = new Backoff({ baseMs: retryDelayMs, maxMs: Math.max(retryDelayMs, RETRY_CAP_MS) });

  // One retry per command: a command issued while Redis is away fails fast, and the buffer holds it.
  const prefix = prefixForRedis(options.redisUrl, options.prefix);
  const connection: Redis = createRedisConnection(options.redisUrl, { maxRetriesPerRequest: 1 });
  const queue = new Queue(EVENTS_QUEUE, { connection, prefix: bullPrefix(prefix, EVENTS_QUEUE) });
  queue.on('error', () => undefined);

  const buffer = new EventBuffer(limit, logger);
  let enqueued = 0;
  let buffering = false;
  let closed = false;
  let pumping: Promise<void> | null = null;
  const retryWait = wakeableSleep();
  const flushWaiters: Array<() => void> = [];
  let closing: Promise<void> | null = null;

  connection.on('ready', () => retryWait.wake());

  function gauge(): void {
    queueDepth.set({ queue: BUFFER_GAUGE }, buffer.length);
  }

  function add(event: GameEvent): void {
    try {
      if (closed) {
        buffer.dropUnbuffered();
        logger.warn({ eventId: event.id }, 'event producer is closed; event dropped');
        return;
      }
      buffer.push(event);
      gauge();
      startPump();
    } catch (err) {
      logger.error({ err }, 'event producer add failed');
    }
  }

  function startPump(): void {
    if (pumping) return;
    pumping = pump().finally(() => {
      pumping = null;
      // An add that landed between the loop's last check and here must not be stranded.
      if (buffer.length > 0 && !closed) startPump();
    });
  }

  async function pump(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.take(batchSize);
      try {
        await withTimeout(addBatch(queue, batch), ADD_TIMEOUT_MS);
        buffer.acknowledge();
        backoff.reset();
        enqueued += batch.length;
        gauge();
        if (buffer.length === 0 && buffering) {
          buffering = false;
          logger.info({ dropped: buffer.dropped }, 'Redis is back; job buffer drained');
        }
      } catch (err) {
        buffer.failed();
        if (!buffering) {
          buffering = true;
          logger.warn(
            { err: (err as Error).message, buffered: buffer.length, bufferLimit: limit },
            'cannot add jobs to Redis; buffering events in memory',
          );
        }
        if (closed) return;
        await retryWait.sleep(backoff.next());
        if (closed && buffer.length > 0) return;
      }
    }
    for (const waiter of flushWaiters.splice(0)) waiter();
  }

  async function flush(): Promise<void> {
    if (buffer.length === 0 || closed) return;
    await new Promise<void>((resolve) => flushWaiters.push(resolve));
  }

  return {
    add,
    flush,
    stats: () => ({ buffered: buffer.length, enqueued, dropped: buffer.dropped, buffering }),
    close() {
      closing ??= (async () => {
        if (buffer.length > 0) {
          await Promise.race([flush(), sleep(CLOSE_FLUSH_MS)]);
        }
        closed = true;
        retryWait.wake();
        for (const waiter of flushWaiters.splice(0)) waiter();
        if (buffer.length > 0) {
          logger.warn({ lost: buffer.length }, 'event producer closed with events still buffered');
        }
        buffer.clear();
        gauge();
        await Promise.race([queue.close().catch(() => undefined), sleep(CLOSE_FLUSH_MS)]);
        connection.disconnect();
      })();
      return closing;
    },
  };
}

/** One `addBulk` of a batch: jobId = the event id, so a duplicate is queued once. */
function addBatch(queue: Queue, batch: readonly GameEvent[]): Promise<unknown> {
  return queue.addBulk(
    batch.map((event) => ({
      name: event.type,
      data: event,
      opts: { jobId: toJobId(event.id), ...EVENT_JOB_OPTIONS },
    })),
  );
}

/** A sleep that `wake` cuts short: Redis announcing it is back, or the producer closing. */
function wakeableSleep(): { sleep(ms: number): Promise<void>; wake(): void } {
  let wake: (() => void) | null = null;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      }),
    wake: () => wake?.(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  // The abandoned promise may still settle later; its jobs are de-duplicated by jobId.
  promise.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
