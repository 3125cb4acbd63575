import type { GameEvent } from '../model/events.js';
import { TAIL_BATCH_LIMIT } from './options.js';
import { offsetParts, type LogBounds, type NewGameEvent, type Offset } from './types.js';

/** The memory bus's event log: a bounded ring, trimmed by age and capped by count like Redis's. */
export interface MemoryLog {
  /** Assigns the event the next offset and appends it, trimming what falls out of retention. */
  append(event: NewGameEvent): GameEvent;
  read(after: Offset | null, limit: number): GameEvent[];
  bounds(): LogBounds;
  /** The newest offset assigned, or 0-0: where "from now on" starts. */
  lastOffset(): Offset;
  /** Batches of events after `cursor` until `signal` aborts or `closed()` turns true. */
  tail(cursor: Offset, closed: () => boolean, signal?: AbortSignal): AsyncGenerator<GameEvent[]>;
  /** Wakes every waiting tail (after an append, or to let them see the bus closed). */
  wake(): void;
  clear(): void;
}

export interface MemoryLogOptions {
  retention: number;
  retentionMs: number;
  now: () => number;
  onCapped?: ((events: number) => void) | undefined;
}

interface Entry {
  ms: number;
  n: number;
  event: GameEvent;
}

export function createMemoryLog({ retention, retentionMs, now, onCapped }: MemoryLogOptions): MemoryLog {
  // The ring: `ring[(start + i) % retention]` is the i-th oldest retained entry.
  const ring: Array<Entry | undefined> = [];
  let start = 0;
  let size = 0;
  let trimmedThrough: Offset | null = null;
  // Like Redis, 0-0 is never assigned, so it can stand for "before everything".
  let lastMs = 0;
  let lastN = 0;
  const waiters = new Set<() => void>();

  const at = (i: number): Entry => ring[(start + i) % retention] as Entry;

  function dropOldest(): void {
    trimmedThrough = at(0).event.offset ?? null;
    // Emptied, so a quiet league's old events are not held until the ring comes round; a slot
    // set to undefined rather than deleted keeps the array dense (a holey one is slower to index).
    ring[start] = undefined;
    start = (start + 1) % retention;
    size -= 1;
  }

  function append(event: NewGameEvent): GameEvent {
    const ms = Math.max(Math.floor(now()), lastMs);
    if (ms === lastMs) lastN += 1;
    else {
      lastMs = ms;
      lastN = 0;
    }
    const stored = { ...event, offset: `${ms}-${lastN}` } as GameEvent;
    const entry: Entry = { ms, n: lastN, event: stored };
    // Same semantics as Redis, exactly rather than in chunks: older than the window goes first...
    const keepFrom = ms - retentionMs;
    while (size > 0 && at(0).ms < keepFrom) dropOldest();
    if (size < retention) {
      ring[(start + size) % retention] = entry;
      size += 1;
    } else {
      // ...and the count caps what is left, told when it cuts into the window.
      if (at(0).ms >= keepFrom) onCapped?.(1);
      trimmedThrough = at(0).event.offset ?? null;
      ring[start] = entry;
      start = (start + 1) % retention;
    }
    return stored;
  }

  /** Index of the oldest retained entry strictly after `after` (size when none). */
  function indexAfter(after: Offset | null): number {
    if (after === null) return 0;
    const [ms, n] = offsetParts(after);
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = at(mid);
      if (e.ms < ms || (e.ms === ms && e.n <= n)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function read(after: Offset | null, limit: number): GameEvent[] {
    const from = indexAfter(after);
    const to = Math.min(size, from + Math.max(0, limit));
    const out: GameEvent[] = [];
    for (let i = from; i < to; i++) out.push(at(i).event);
    return out;
  }

  async function* tail(
    cursor: Offset,
    closed: () => boolean,
    signal?: AbortSignal,
  ): AsyncGenerator<GameEvent[]> {
    while (!closed() && !signal?.aborted) {
      const batch = read(cursor, TAIL_BATCH_LIMIT);
      const last = batch.at(-1);
      if (last?.offset === undefined) {
        await nextChange(waiters, signal);
        continue;
      }
      cursor = last.offset;
      yield batch;
    }
  }

  return {
    append,
    read,
    tail,
    bounds: () => ({
      first: size > 0 ? (at(0).event.offset ?? null) : null,
      last: size > 0 ? (at(size - 1).event.offset ?? null) : null,
      trimmedThrough,
    }),
    lastOffset: () => `${lastMs}-${lastN}`,
    wake() {
      for (const waiter of [...waiters]) waiter();
    },
    clear() {
      ring.length = 0;
      size = 0;
    },
  };
}

/** Resolves on the next wake, or when `signal` aborts. */
function nextChange(waiters: Set<() => void>, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      waiters.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    waiters.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
