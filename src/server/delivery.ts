import type { GameEvent, GameSnapshot, SnapshotSource } from '../model/events.js';
import { compareOffsets, type Bus, type Offset } from '../bus/types.js';
import { BusUnavailableError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ClientError, SubscriptionFilter } from './client-protocol.js';
import type { PreparedEvents } from './prepared-events.js';
import type { RecentEvents } from './recent-events.js';
import { matchesFilter, playsIn } from './subscription-index.js';

/**
 * What WebSocket and SSE connections share: one prepared form of each event (serialised once),
 * subscriptions that buffer live events while they replay the log or fetch snapshots, the
 * per-subscription spoiler-delay queue, and the hand-over from replay to live that yields
 * neither a gap nor a duplicate.
 */

/** An event with its JSON text, computed once and shared by every frame that carries it. */
export interface PreparedEvent {
  readonly event: GameEvent;
  readonly offset: Offset;
  /** The offset's millisecond part: when the event was appended to the log. */
  readonly offsetMs: number;
  readonly json: string;
  /** WebSocket frames by subscription id (the only part of a frame that varies by client). */
  wsFrames?: Map<string, Buffer>;
  sseFrame?: Buffer;
}

export function prepare(event: GameEvent): PreparedEvent {
  const offset = event.offset ?? '0-0';
  return { event, offset, offsetMs: parseInt(offset, 10) || 0, json: JSON.stringify(event) };
}

/**
 * Writes a batch of frames to a client's stream in one system call. Frames are shared by every
 * client that gets them, so they are written corked, frame by frame (one writev), never copied
 * into a buffer per client: at a thousand clients such copies were 32 MB/s of short-lived native
 * allocations that fragmented the C heap, which then never shrank (docs/decisions.md, "Frames are
 * written, never copied per client").
 */
export function writeFrames(
  out: { write(chunk: Buffer): boolean; cork(): void; uncork(): void },
  frames: readonly Buffer[],
): void {
  if (frames.length === 1) {
    out.write(frames[0] as Buffer);
    return;
  }
  out.cork();
  for (const frame of frames) out.write(frame);
  out.uncork();
}

/** A client connection as the delivery code sees it (WebSocket or SSE). */
export interface Sink {
  readonly closed: boolean;
  /** Bytes held for this client outside its socket (replay buffers, delay queues). */
  held: number;
  eventFrame(subId: string, p: PreparedEvent): Buffer;
  snapshotFrame(subId: string, snapshot: GameSnapshot): Buffer;
  errorFrame(error: ClientError): Buffer;
  /** Adds a frame to the batch written on the next `flush()`. */
  queue(frame: Buffer): void;
  /** Writes the batch with the socket corked, then enforces the buffered-bytes limit. */
  flush(): void;
  /** Enforces the buffered-bytes limit now; false when the client was dropped. */
  checkBudget(): boolean;
  /** Resolves once the socket's buffer has room again (replay paces itself on it). */
  drained(): Promise<void>;
}

export interface Clock {
  now(): number;
}

/** Sinks with frames queued during a dispatch; flushed together at its end. */
export type DirtySet = Set<Sink>;

interface Held {
  due: number;
  frame: Buffer;
}

export class Subscription {
  /** True until the replay/snapshot phase hands over to live delivery. */
  buffering = true;
  cancelled = false;
  private pending: PreparedEvent[] = [];
  private pendingBytes = 0;
  private delayed: Held[] = [];
  private delayedHead = 0;
  private delayedBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    readonly filter: SubscriptionFilter,
    readonly delayMs: number,
    readonly sink: Sink,
    private readonly dirty: DirtySet,
    private readonly clock: Clock,
  ) {}

  /** A live event from the tail (already matched against the filter). */
  push(p: PreparedEvent): void {
    if (this.cancelled) return;
    if (this.buffering) {
      this.pending.push(p);
      // An estimate of the frame to come: the event's JSON plus the envelope.
      const bytes = p.json.length + 64;
      this.pendingBytes += bytes;
      this.sink.held += bytes;
      this.sink.checkBudget();
      return;
    }
    this.deliver(p);
  }

  /** Sends now, or holds for the spoiler delay. The caller flushes the sink. */
  deliver(p: PreparedEvent): void {
    if (this.cancelled) return;
    const frame = this.sink.eventFrame(this.id, p);
    if (this.delayMs === 0) {
      this.sink.queue(frame);
      this.dirty.add(this.sink);
      return;
    }
    const now = this.clock.now();
    // From when the event was logged (a replayed old event is already due), but never later than
    // delay-from-now should the log's clock run ahead of ours.
    const due = Math.min(now, p.offsetMs) + this.delayMs;
    if (this.delayed.length === this.delayedHead && due <= now) {
      this.sink.queue(frame);
      this.dirty.add(this.sink);
      return;
    }
    this.delayed.push({ due, frame });
    this.delayedBytes += frame.length;
    this.sink.held += frame.length;
    if (!this.sink.checkBudget()) return;
    this.arm();
  }

  /** Ends buffering: delivers what arrived live meanwhile, skipping anything at or before `after`. */
  goLive(after: Offset | null): void {
    const pending = this.pending;
    this.pending = [];
    this.sink.held -= this.pendingBytes;
    this.pendingBytes = 0;
    this.buffering = false;
    for (const p of pending) {
      if (after !== null && compareOffsets(p.offset, after) <= 0) continue;
      this.deliver(p);
    }
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.sink.held -= this.pendingBytes + this.delayedBytes;
    this.pending = [];
    this.delayed = [];
    this.pendingBytes = this.delayedBytes = 0;
  }

  private arm(): void {
    if (this.timer || this.cancelled) return;
    const head = this.delayed[this.delayedHead];
    if (!head) return;
    this.timer = setTimeout(() => this.release(), Math.max(0, head.due - this.clock.now()));
  }

  private release(): void {
    this.timer = undefined;
    if (this.cancelled) return;
    const now = this.clock.now();
    let released = 0;
    while (this.delayedHead < this.delayed.length) {
      const head = this.delayed[this.delayedHead] as Held;
      if (head.due > now) break;
      this.delayedHead += 1;
      this.delayedBytes -= head.frame.length;
      this.sink.held -= head.frame.length;
      this.sink.queue(head.frame);
      released += 1;
    }
    // Compact once the consumed prefix dominates, so the array does not grow without bound.
    if (this.delayedHead > 1024 && this.delayedHead * 2 > this.delayed.length) {
      this.delayed = this.delayed.slice(this.delayedHead);
      this.delayedHead = 0;
    }
    if (released > 0) this.sink.flush();
    this.arm();
  }
}

export interface ActivateContext {
  bus: Bus;
  snapshots: SnapshotSource;
  logger: Logger;
  /** Replays that start among the recently dispatched events are served from here. */
  recent: RecentEvents;
  /** Events read from the log for replays are prepared through this, shared between clients. */
  prepared: PreparedEvents;
}

export interface ActivateRequest {
  since?: Offset;
  snapshot: boolean;
  /** The live feed's position when the subscription was registered: replay covers up to here. */
  liveFrom: Offset;
}

// Events per log read while replaying: large enough to amortise a Redis round trip, small enough
// that a page's frames (~600 B each) stay far below the buffered-bytes limit.
const REPLAY_PAGE = 500;

/**
 * The asynchronous half of subscribing: resume-gap check, snapshots, replay from the log, then the
 * hand-over to live. Live events that arrive meanwhile are buffered by the subscription (it was
 * registered in the index at `liveFrom`), so replay covers (since, liveFrom] and live (liveFrom, ...).
 */
/** Resolves false when setup failed (the client was told with `internal_error`); the caller drops the subscription. */
export async function activate(
  sub: Subscription,
  req: ActivateRequest,
  ctx: ActivateContext,
): Promise<boolean> {
  const { sink } = sub;
  try {
    let replayFrom: Offset | null = req.since ?? null;
    let sendSnapshots = req.snapshot;
    if (replayFrom !== null) {
      const bounds = await whileBusUnavailable(sub, () => ctx.bus.bounds());
      const gap = resumeGap(replayFrom, bounds.trimmedThrough, bounds.last);
      if (gap) {
        if (sub.cancelled) return true;
        sink.queue(sink.errorFrame({ code: 'resume_gap', id: sub.id, message: gap.message }));
        sink.flush();
        replayFrom = gap.resumeFrom;
        sendSnapshots = true;
      }
    }
    if (sendSnapshots) {
      const games = await whileBusUnavailable(sub, () => ctx.snapshots.list());
      if (sub.cancelled || sink.closed) return true;
      for (const game of games) {
        if (snapshotMatches(sub.filter, game)) sink.queue(sink.snapshotFrame(sub.id, game));
      }
      sink.flush();
    }
    if (replayFrom !== null) await replay(sub, replayFrom, req.liveFrom, ctx);
    if (sub.cancelled || sink.closed) return true;
    // A `since` newer than our live position (another instance's tail ran ahead) must not repeat.
    const after = replayFrom !== null && compareOffsets(replayFrom, req.liveFrom) > 0 ? replayFrom : null;
    sub.goLive(after);
    sink.flush();
    return true;
  } catch (err) {
    ctx.logger.warn({ err, sub: sub.id }, 'subscription setup failed');
    if (sub.cancelled || sink.closed) return false;
    sink.queue(
      sink.errorFrame({
        code: 'internal_error',
        id: sub.id,
        message: `could not replay or snapshot: ${(err as Error).message}; subscribe again`,
      }),
    );
    sink.flush();
    return false;
  }
}

// A Redis restart or fail-over takes seconds: a subscription set up meanwhile waits this long for
// the bus (its live events are held, within the client's byte budget) before giving up.
const BUS_WAIT_MS = 15_000;
const BUS_RETRY_MS = [100, 250, 500, 1_000, 2_000];

/** Runs a bus read, retrying while the bus is unavailable (all setup reads are idempotent). */
async function whileBusUnavailable<T>(sub: Subscription, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUS_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (
        !(err instanceof BusUnavailableError) ||
        sub.cancelled ||
        sub.sink.closed ||
        Date.now() > deadline
      ) {
        throw err;
      }
      const wait = BUS_RETRY_MS[Math.min(attempt, BUS_RETRY_MS.length - 1)] as number;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function replay(
  sub: Subscription,
  since: Offset,
  liveFrom: Offset,
  ctx: ActivateContext,
): Promise<void> {
  const held = ctx.recent.between(since, liveFrom);
  if (held) {
    // Prepared once by the live feed: every client replaying these shares their frames.
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
    // What is still retained after the hole is replayed: the client loses only what is gone.
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

/**
 * A snapshot matches when its league, game and teams pass the filter (event types do not apply).
 * Without a `games` filter only games in progress are sent; naming a game sends it in any state.
 */
export function snapshotMatches(filter: SubscriptionFilter, game: GameSnapshot): boolean {
  if (filter.leagues && !filter.leagues.has(game.league)) return false;
  if (filter.games) return filter.games.has(game.gameId);
  if (game.state !== 'in') return false;
  return !filter.teams || playsIn(filter.teams, game.teams);
}
