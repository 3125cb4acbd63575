import type { GameEvent, SnapshotSource } from '../../model/events.js';
import { compareOffsets, type Bus, type Offset } from '../../bus/types.js';
import type { Logger } from '../../core/log.js';
import { matchesFilter } from '../subscription-index.js';
import { whileBusUnavailable } from './bus-retry.js';
import type { PreparedEvents } from './prepared-events.js';
import type { RecentEvents } from './recent-events.js';
import type { Subscription } from './subscription.js';

/**
 * Reading the past for a subscription that resumes: the events after an offset, from the recently
 * dispatched ones when they reach back that far, else from the log; and whether an offset can be
 * resumed at all (`resumeGap`).
 */

/** What a subscription reads while it sets up: the log, snapshots, the events dispatched lately. */
export interface ActivateContext {
  bus: Bus;
  snapshots: SnapshotSource;
  logger: Logger;
  /** Replays that start among the recently dispatched events are served from here. */
  recent: RecentEvents;
  /** Events read from the log for replays are prepared through this, shared between viewers. */
  prepared: PreparedEvents;
}

// Events per log read while replaying: large enough to amortise a Redis round trip, small enough
// that a page's frames (~600 B each) stay far below the buffered-bytes limit.
const REPLAY_PAGE = 500;

/** Delivers the matching events in (since, liveFrom] to `sub`, paced on its viewer's socket. */
export async function replay(
  sub: Subscription,
  since: Offset,
  liveFrom: Offset,
  ctx: ActivateContext,
): Promise<void> {
  const held = ctx.recent.between(since, liveFrom);
  if (held) {
    // Prepared once by the live feed: every viewer replaying these shares their frames.
    for (let i = 0; i < held.length; i += REPLAY_PAGE) {
      if (i > 0) await sub.sink.drained();
      if (sub.cancelled || sub.sink.closed) return;
      for (const p of held.slice(i, i + REPLAY_PAGE)) if (matchesFilter(sub.filter, p.event)) sub.deliver(p);
      sub.sink.flush();
    }
    return;
  }
  let cursor = since;
  while (!sub.cancelled && !sub.sink.closed) {
    if (compareOffsets(cursor, liveFrom) >= 0) return;
    const from = cursor;
    const page = await whileBusUnavailable(sub, () => ctx.bus.read(from, REPLAY_PAGE));
    if (sub.cancelled || sub.sink.closed) return;
    let reachedLive = false;
    for (const event of page) {
      const offset = event.offset ?? '0-0';
      if (compareOffsets(offset, liveFrom) > 0) {
        reachedLive = true;
        break;
      }
      cursor = offset;
      if (matchesFilter(sub.filter, event)) sub.deliver(ctx.prepared.get(event));
    }
    sub.sink.flush();
    if (reachedLive || page.length < REPLAY_PAGE) return;
    await sub.sink.drained();
  }
}

/**
 * Every event logged after `after` up to the newest that `keep` accepts, oldest first. Whatever
 * `liveFrom` covers comes from the recently dispatched events when they hold it.
 */
export async function eventsAfter(
  sub: Subscription,
  after: Offset,
  liveFrom: Offset,
  ctx: ActivateContext,
  keep: (event: GameEvent) => boolean,
): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  let cursor = after;
  const held = ctx.recent.between(after, liveFrom);
  if (held) {
    for (const p of held) if (keep(p.event)) out.push(p.event);
    if (compareOffsets(liveFrom, after) > 0) cursor = liveFrom;
  }
  for (;;) {
    const from = cursor;
    const page = await whileBusUnavailable(sub, () => ctx.bus.read(from, REPLAY_PAGE));
    for (const event of page) if (keep(event)) out.push(event);
    const last = page.at(-1)?.offset;
    if (page.length < REPLAY_PAGE || last === undefined || sub.cancelled || sub.sink.closed) return out;
    cursor = last;
  }
}

export interface ResumeGap {
  message: string;
  /** Where the retained log picks up again (replayed after the snapshots), or null: live only. */
  resumeFrom: Offset | null;
}

/** Why `since` cannot be resumed exactly, or null when it can. */
export function resumeGap(
  since: Offset,
  trimmedThrough: Offset | null,
  last: Offset | null,
): ResumeGap | null {
  if (trimmedThrough !== null && compareOffsets(since, trimmedThrough) < 0) {
    // What is still retained after the hole is replayed: the viewer loses only what is gone.
    return {
      message: `events after ${since} up to ${trimmedThrough} are no longer retained; sending snapshots, then the events after ${trimmedThrough}, then live events`,
      resumeFrom: trimmedThrough,
    };
  }
  if (compareOffsets(since, last ?? '0-0') > 0) {
    return {
      message: `since ${since} is newer than the newest logged event (${last ?? 'none'}); the log was reset or the offset is foreign; sending snapshots, then live events`,
      resumeFrom: null,
    };
  }
  return null;
}
