import type { GameEvent } from '../../model/events.js';
import { prepare, type PreparedEvent } from './frames.js';

/**
 * The events replays read from the log lately, prepared once: viewers replaying the same stretch
 * of the log at the same time (a daemon's viewers all resuming after a Redis restart) then share
 * one JSON text and one frame per event, instead of each holding a copy of every frame in its
 * socket's queue.
 *
 * Only replays running at about the same time gain from it, so it holds two generations: every
 * `ttlMs` the older is dropped, and an event not asked for since is gone after at most two
 * periods; when no replay reads the log the cache is empty. Each generation holds at most
 * `maxEvents` (a full one starts the next early).
 */
export class PreparedEvents {
  private current = new Map<string, PreparedEvent>();
  private previous = new Map<string, PreparedEvent>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly maxEvents: number,
    ttlMs: number,
  ) {
    this.timer = setInterval(() => this.rotate(), ttlMs).unref();
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  get(event: GameEvent): PreparedEvent {
    const offset = event.offset ?? '0-0';
    // An offset names one event per dataset; after Redis lost its data it may name another.
    const current = this.current.get(offset);
    if (current?.event.id === event.id) return current;
    const previous = this.previous.get(offset);
    const p = previous?.event.id === event.id ? previous : prepare(event);
    if (this.current.size >= this.maxEvents) this.rotate();
    this.current.set(offset, p);
    return p;
  }

  close(): void {
    clearInterval(this.timer);
    this.current.clear();
    this.previous.clear();
  }

  private rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}
