import { compareOffsets, type Offset } from '../../bus/types.js';
import type { PreparedEvent } from './frames.js';

/**
 * The events the live feed dispatched lately, kept in their prepared form: a viewer resuming from
 * a recent offset is replayed from here instead of the log, with the frames every other viewer
 * resuming at the same moment also gets (a daemon taking over a killed instance's thousand viewers
 * otherwise reads, parses and serialises the same events a thousand times).
 *
 * It holds a contiguous run of the log, every event after `from` up to the newest, as the tail read
 * it; whoever feeds it calls `reset` whenever that may no longer hold (the tail failed and resumed,
 * the store lost its data), and an offset before `from` is replayed from the log as before.
 */
export class RecentEvents {
  private events: PreparedEvent[] = [];
  private head = 0;
  /** Everything after this offset is held; null before the first `reset`. */
  private from: Offset | null = null;

  constructor(
    private readonly maxEvents: number,
    private readonly maxAgeMs: number,
  ) {}

  get size(): number {
    return this.events.length - this.head;
  }

  /** Forgets everything: from now on only events after `after` are held. */
  reset(after: Offset): void {
    this.events = [];
    this.head = 0;
    this.from = after;
  }

  /** The next event of the log (the caller guarantees order and contiguity). */
  add(p: PreparedEvent): void {
    if (this.from === null) return;
    this.events.push(p);
    const oldest = p.offsetMs - this.maxAgeMs;
    while (this.size > this.maxEvents || (this.events[this.head] as PreparedEvent).offsetMs < oldest) {
      this.from = (this.events[this.head] as PreparedEvent).offset;
      this.head += 1;
    }
    // Compact once the dropped prefix dominates, so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** The held events in (after, through], oldest first; null when events after `after` were not all kept. */
  between(after: Offset, through: Offset): PreparedEvent[] | null {
    if (this.from === null || compareOffsets(after, this.from) < 0) return null;
    const start = this.firstAfter(after);
    const end = this.firstAfter(through);
    return start < end ? this.events.slice(start, end) : [];
  }

  /** Index of the first held event with an offset greater than `offset`. */
  private firstAfter(offset: Offset): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareOffsets((this.events[mid] as PreparedEvent).offset, offset) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
