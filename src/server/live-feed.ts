import type { GameEvent } from '../model/events.js';
import { compareOffsets, type Bus, type Offset } from '../bus/types.js';
import type { Logger } from '../core/log.js';
import { prepare } from './delivery/frames.js';
import { RecentEvents } from './delivery/recent-events.js';
import type { DirtySet, Subscription } from './delivery/subscription.js';
import { createSubscriptionIndex, type SubscriptionIndex } from './subscription-index.js';

/**
 * The process's one reader of the log's live tail, shared by every WebSocket and SSE viewer.
 * Each batch is dispatched synchronously: every event is prepared (serialised) once and handed to
 * the subscriptions the index finds; every viewer touched is flushed once at the end of the
 * event-loop turn, all its frames in one write. `cursor` is the offset of the last dispatched event, so a
 * subscription registered now is live from exactly `cursor` on.
 */
export interface LiveFeed {
  readonly cursor: Offset;
  readonly index: SubscriptionIndex<Subscription>;
  /** Sinks with frames queued outside a dispatch are added here and flushed by their owner. */
  readonly dirty: DirtySet;
  /** What was dispatched lately, for replays that start there (see RecentEvents). */
  readonly recent: RecentEvents;
  start(): Promise<void>;
  close(): void;
}

// After a failed tail (Redis away), wait before reading again; the bus reconnects meanwhile.
const RETRY_MS = 1_000;

// Resuming viewers come back within seconds (a reconnect, a daemon killed and its viewers moving
// over); a minute of events covers them, and a busy slate makes ~10 events/s (a few MB).
const RECENT_MAX_EVENTS = 10_000;
const RECENT_MAX_AGE_MS = 60_000;

export function createLiveFeed(options: { bus: Bus; logger: Logger }): LiveFeed {
  const { bus, logger } = options;
  const recent = new RecentEvents(RECENT_MAX_EVENTS, RECENT_MAX_AGE_MS);
  const index = createSubscriptionIndex<Subscription>();
  const dirty: DirtySet = new Set();
  const abort = new AbortController();
  // '0-0' precedes every offset: on an empty log the tail then starts at the very first event.
  let cursor: Offset = '0-0';
  let running: Promise<void> | undefined;
  let flushScheduled = false;
  // Events held may no longer be in the log (Redis restarted empty): replay reads the log again.
  const stopWatchingLoss = bus.onDataLost(() => recent.reset(cursor));

  function dispatch(batch: readonly GameEvent[]): void {
    for (const event of batch) {
      const offset = event.offset;
      // Never dispatch twice: a retried tail may hand back what was already delivered.
      if (offset === undefined || compareOffsets(offset, cursor) <= 0) continue;
      const p = prepare(event);
      index.match(event, (sub) => sub.push(p));
      cursor = offset;
      recent.add(p);
    }
    // Flush once the current turn of the event loop is done: tail batches that arrive back to
    // back (one per game's commit) then leave in one write per viewer, not one per batch.
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushDirty);
    }
  }

  function flushDirty(): void {
    flushScheduled = false;
    for (const sink of dirty) sink.flush();
    dirty.clear();
  }

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      try {
        for await (const batch of bus.tail(cursor, abort.signal)) {
          dispatch(batch);
          if (abort.signal.aborted) return;
        }
        return;
      } catch (err) {
        if (abort.signal.aborted) return;
        // The resumed tail may skip what the store lost meanwhile: recent events start over.
        recent.reset(cursor);
        logger.warn({ err }, `live tail failed; retrying in ${RETRY_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }

  return {
    get cursor() {
      return cursor;
    },
    index,
    dirty,
    recent,
    async start() {
      if (running) return;
      const bounds = await bus.bounds();
      cursor = bounds.last ?? '0-0';
      recent.reset(cursor);
      running = run();
    },
    close() {
      abort.abort();
      stopWatchingLoss();
    },
  };
}
