import type { GameSnapshot } from '../../model/events.js';
import { compareOffsets, type Offset } from '../../bus/types.js';
import type { SubscribeRequest, SubscriptionFilter } from '../viewer-protocol.js';
import { teamsMatch } from '../subscription-index.js';
import type { ErrorFrame, PreparedEvent } from './frames.js';

/**
 * One subscription: what it matches, and its frames on their way to the viewer. Live events are
 * held while the subscription sets up (snapshots, replay) and follow once it goes live; with a
 * spoiler delay, every frame waits in a queue until `delay` after its event was logged.
 */

/** A viewer connection as subscriptions and their set-up see it (implemented by `Sink`). */
export interface Outlet {
  readonly closed: boolean;
  /** Bytes held for this viewer outside its socket (replay buffers, delay queues). */
  held: number;
  eventFrame(subId: string, p: PreparedEvent): Buffer;
  snapshotFrame(subId: string, game: GameSnapshot): Buffer;
  /** Writes an error frame now, after whatever is queued. */
  send(frame: ErrorFrame): void;
  /** Adds a frame to the batch written on the next `flush()`. */
  queue(frame: Buffer): void;
  flush(): void;
  /** Enforces the buffered-bytes limit now; false when the viewer was dropped. */
  checkBudget(): boolean;
  /** Resolves once the socket's buffer has room again. */
  drained(): Promise<void>;
}

export interface Clock {
  now(): number;
}

/** Outlets with frames queued during a dispatch; flushed together at its end. */
export type DirtySet = Set<Outlet>;

interface Held {
  due: number;
  frame: Buffer;
}

export class Subscription {
  readonly id: string;
  readonly filter: SubscriptionFilter;
  readonly delayMs: number;
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
    request: Pick<SubscribeRequest, 'id' | 'filter' | 'delayMs'>,
    readonly sink: Outlet,
    private readonly dirty: DirtySet,
    private readonly clock: Clock,
  ) {
    this.id = request.id;
    this.filter = request.filter;
    this.delayMs = request.delayMs;
  }

  /** The log time this subscription's viewer is shown now: `delay` ago. */
  seesAsOf(): number {
    return this.clock.now() - this.delayMs;
  }

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
    this.deliverFrame(this.sink.eventFrame(this.id, p), p.offsetMs);
  }

  /**
   * Sends a frame showing the game as of `asOfMs` (log time) now, or holds it until `delay` after
   * that. Frames must come in the order of their `asOfMs`: the queue releases from its head.
   */
  deliverFrame(frame: Buffer, asOfMs: number): void {
    if (this.cancelled) return;
    if (this.delayMs === 0) {
      this.sink.queue(frame);
      this.dirty.add(this.sink);
      return;
    }
    const now = this.clock.now();
    // From when the event was logged (a replayed old event is already due), but never later than
    // delay-from-now should the log's clock run ahead of ours.
    const due = Math.min(now, asOfMs) + this.delayMs;
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

/**
 * A snapshot matches when its league, game and teams pass the filter (event types do not apply).
 * Without a `games` filter only games in progress are sent; naming a game sends it in any state.
 */
export function snapshotMatches(filter: SubscriptionFilter, game: GameSnapshot): boolean {
  return gameMatches(filter, game) && (filter.games !== undefined || game.state === 'in');
}

/** The part of `snapshotMatches` that holds whatever state the game is in. */
export function gameMatches(filter: SubscriptionFilter, game: GameSnapshot): boolean {
  if (filter.leagues && !filter.leagues.has(game.league)) return false;
  if (filter.games) return filter.games.has(game.gameId);
  return teamsMatch(filter, game.teams);
}
