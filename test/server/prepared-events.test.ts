import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../streams/events.js';
import { PreparedEvents } from '../../src/server/prepared-events.js';
import { game, makeEvent } from './gateway-harness.js';

const G = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);
const logged = (offset: string): GameEvent => ({ ...makeEvent(G), offset }) as GameEvent;

describe('prepared events', () => {
  it('prepares an event read again (a fresh object from the log) once', () => {
    const cache = new PreparedEvents(10);
    const event = logged('1000-0');
    const first = cache.get(event);
    // Another replay reads the same entry: an equal but distinct object.
    const again = cache.get(structuredClone(event));
    expect(again).toBe(first);
    expect(again.json).toBe(JSON.stringify(event));
  });

  it('prepares anew when the offset names another event (a dataset lost and refilled)', () => {
    const cache = new PreparedEvents(10);
    const before = cache.get(logged('1000-0'));
    const other = logged('1000-0');
    const after = cache.get(other);
    expect(after).not.toBe(before);
    expect(after.event.id).toBe(other.id);
    expect(cache.get(other)).toBe(after);
  });

  it('keeps at most its bound, dropping the oldest', () => {
    const cache = new PreparedEvents(3);
    const events = ['1-0', '2-0', '3-0', '4-0'].map(logged);
    const prepared = events.map((e) => cache.get(e));
    expect(cache.size).toBe(3);
    expect(cache.get(events[3] as GameEvent)).toBe(prepared[3]);
    expect(cache.get(events[0] as GameEvent)).not.toBe(prepared[0]);
  });
});
