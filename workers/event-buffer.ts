import type { GameEvent } from '../src/model/events.js';
import type { Logger } from '../src/core/log.js';
import { jobsDropped } from '../src/core/metrics.js';

/**
 * The producer's events not yet acknowledged by Redis, in order, at most `limit` of them: past it
 * the OLDEST go (counted and logged), but never the batch in flight at the front, which may
 * already be in Redis.
 */
export class EventBuffer {
  private events: GameEvent[] = [];
  // Events at the front that the current addBulk carries.
  private inFlight = 0;
  private droppedCount = 0;

  constructor(
    private readonly limit: number,
    private readonly logger: Logger,
  ) {}

  get length(): number {
    return this.events.length;
  }

  /** Events dropped so far: the buffer was full, or the producer closed. */
  get dropped(): number {
    return this.droppedCount;
  }

  push(event: GameEvent): void {
    this.events.push(event);
    const over = Math.min(this.events.length - this.limit, this.events.length - this.inFlight);
    if (over <= 0) return;
    this.events.splice(this.inFlight, over);
    this.droppedCount += over;
    jobsDropped.inc(over);
    const dropped = this.droppedCount;
    // First drop, then every 1,000th: a long outage must not flood the log.
    if (dropped === over || Math.floor(dropped / 1000) !== Math.floor((dropped - over) / 1000)) {
      this.logger.warn({ dropped, bufferLimit: this.limit }, 'job buffer full; dropped the oldest events');
    }
  }

  /** Counts an event that was never buffered (the producer had closed). */
  dropUnbuffered(): void {
    this.droppedCount += 1;
    jobsDropped.inc();
  }

  /** The next batch, at most `size` events from the front, now in flight. */
  take(size: number): GameEvent[] {
    const batch = this.events.slice(0, size);
    this.inFlight = batch.length;
    return batch;
  }

  /** The batch in flight is in Redis: it leaves the buffer. */
  acknowledge(): void {
    this.events.splice(0, this.inFlight);
    this.inFlight = 0;
  }

  /** The batch in flight failed: it stays, first in line, and may be dropped again when full. */
  failed(): void {
    this.inFlight = 0;
  }

  clear(): void {
    this.events = [];
    this.inFlight = 0;
  }
}
