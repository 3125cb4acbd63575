import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameEvent } from '../../../src/model/events.js';
import { PreparedEvents } from '../../../src/server/delivery/prepared-events.js';
import { game, makeEvent } from '../../support/events.js';

const G = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);
const logged = (offset: string): GameEvent => ({ ...makeEvent(G), offset }) as GameEvent;

const caches: PreparedEvents[] = [];
function cache(maxEvents: number, ttlMs = 60_000): PreparedEvents {
  const c = new PreparedEvents(maxEvents, ttlMs);
  caches.push(c);
  return c;
}
afterEach(() => {
  for (const c of caches.splice(0)) c.close();
  vi.useRealTimers();
});

describe('prepared events', () => {
  it('prepares an event read again (a fresh object from the log) once', () => {
    const c = cache(10);
    const event = logged('1000-0');
    const first = c.get(event);
    // Another replay reads the same entry: an equal but distinct object.
    const again = c.get(structuredClone(event));
    expect(again).toBe(first);
    expect(again.json).toBe(JSON.stringify(event));
  });

  it('prepares anew when the offset names another event (a dataset lost and refilled)', () => {
    const c = cache(10);
    const before = c.get(logged('1000-0'));
    const other = logged('1000-0');
    const after = c.get(other);
    expect(after).not.toBe(before);
    expect(after.event.id).toBe(other.id);
    expect(c.get(other)).toBe(after);
  });

  it('holds two generations of at most its bound each', () => {
    const c = cache(2);
    const events = ['1-0', '2-0', '3-0', '4-0', '5-0'].map(logged);
    const prepared = events.map((e) => c.get(e));
    // 1, 2 went to the older generation when 3 started a new one; 3, 4 replaced them at 5.
    expect(c.size).toBe(3);
    expect(c.get(events[2] as GameEvent)).toBe(prepared[2]);
    expect(c.get(events[0] as GameEvent)).not.toBe(prepared[0]);
  });

  it('is empty once no replay has asked for its events for two periods', () => {
    vi.useFakeTimers();
    const c = cache(100, 1_000);
    const event = logged('1-0');
    const first = c.get(event);
    vi.advanceTimersByTime(1_000);
    // Asked for again in the next period: kept.
    expect(c.get(event)).toBe(first);
    vi.advanceTimersByTime(2_000);
    expect(c.size).toBe(0);
    expect(c.get(event)).not.toBe(first);
  });
});
