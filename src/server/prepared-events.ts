import type { GameEvent } from '../../streams/events.js';
import { prepare, type PreparedEvent } from './delivery.js';

/**
 * The events replays read from the log lately, prepared once: clients replaying the same stretch
 * of the log at the same time (a daemon's viewers all resuming after a Redis restart) then share
 * one JSON text and one frame per event, instead of each holding a copy of every frame in its
 * socket's queue. Bounded: the oldest entries go first.
 */
export class PreparedEvents {
  private readonly byOffset = new Map<string, PreparedEvent>();

  constructor(private readonly maxEvents: number) {}

  get size(): number {
    return this.byOffset.size;
  }

  get(event: GameEvent): PreparedEvent {
    const offset = event.offset ?? '0-0';
    const known = this.byOffset.get(offset);
    // An offset names one event per dataset; after Redis lost its data it may name another.
    if (known !== undefined && known.event.id === event.id) return known;
    const p = prepare(event);
    this.byOffset.delete(offset);
    this.byOffset.set(offset, p);
    if (this.byOffset.size > this.maxEvents) {
      this.byOffset.delete(this.byOffset.keys().next().value as string);
    }
    return p;
  }
}
