import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/model/events.js';
import { prepare, type PreparedEvent } from '../../../src/server/delivery/frames.js';
import { RecentEvents } from '../../../src/server/delivery/recent-events.js';
import { game, makeEvent } from '../../support/events.js';

const G = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);

/** Prepared events at the given log times (ms), offsets `<ms>-<n>` in order. */
function events(times: number[]): PreparedEvent[] {
  return times.map((ms, n) => prepare({ ...makeEvent(G), offset: `${ms}-${n}` } as GameEvent));
}

const offsets = (list: PreparedEvent[] | null): string[] | null => list && list.map((p) => p.offset);

describe('recent events', () => {
  it('holds nothing before the first reset, then every event after it', () => {
    const recent = new RecentEvents(100, 60_000);
    const [e0, e1, e2, e3] = events([1000, 1001, 1002, 1003]) as [
      PreparedEvent,
      PreparedEvent,
      PreparedEvent,
      PreparedEvent,
    ];
    recent.add(e0);
    expect(recent.between('0-0', e0.offset)).toBeNull();
    recent.reset(e0.offset);
    for (const p of [e1, e2, e3]) recent.add(p);
    expect(offsets(recent.between(e0.offset, e3.offset))).toEqual([e1.offset, e2.offset, e3.offset]);
    // (after, through]: both ends exclusive/inclusive, and offsets between events work too.
    expect(offsets(recent.between(e1.offset, e2.offset))).toEqual([e2.offset]);
    expect(offsets(recent.between('1001-5', '1003-0'))).toEqual([e2.offset]);
    expect(recent.between(e3.offset, e3.offset)).toEqual([]);
    expect(recent.between('9999-0', '9999-1')).toEqual([]);
    // Before what is held: the caller reads the log instead.
    expect(recent.between('999-0', e3.offset)).toBeNull();
  });

  it('drops the oldest events beyond its count, and answers null for offsets before them', () => {
    const recent = new RecentEvents(3, 60_000);
    const list = events([1, 2, 3, 4, 5, 6]);
    recent.reset('0-0');
    for (const p of list) recent.add(p);
    expect(recent.size).toBe(3);
    expect(recent.between('0-0', '9-0')).toBeNull();
    expect(recent.between(list[1]!.offset, '9-0')).toBeNull();
    expect(offsets(recent.between(list[2]!.offset, '9-0'))).toEqual(list.slice(3).map((p) => p.offset));
  });

  it('drops events older than its age by log time', () => {
    const recent = new RecentEvents(100, 1_000);
    const list = events([1_000, 1_500, 2_000, 2_600, 3_000]);
    recent.reset('0-0');
    for (const p of list) recent.add(p);
    // At 3,000 ms the events before 2,000 ms are too old.
    expect(offsets(recent.between(list[1]!.offset, '9999-0'))).toEqual(list.slice(2).map((p) => p.offset));
    expect(recent.between(list[0]!.offset, '9999-0')).toBeNull();
  });

  it('stays bounded over a long run (the dropped prefix is compacted)', () => {
    const recent = new RecentEvents(50, 60_000);
    recent.reset('0-0');
    const list = events(Array.from({ length: 5_000 }, (_, i) => 1_000 + i));
    for (const p of list) recent.add(p);
    expect(recent.size).toBe(50);
    const held = recent.between(list[4_949]!.offset, list[4_999]!.offset);
    expect(offsets(held)).toEqual(list.slice(4_950).map((p) => p.offset));
    // The internal array is compacted once the dropped prefix dominates.
    expect((recent as unknown as { events: unknown[] }).events.length).toBeLessThan(2_200);
  });

  it('a reset forgets everything held', () => {
    const recent = new RecentEvents(100, 60_000);
    const list = events([1, 2, 3]);
    recent.reset('0-0');
    for (const p of list) recent.add(p);
    recent.reset(list[2]!.offset);
    expect(recent.size).toBe(0);
    expect(recent.between(list[0]!.offset, list[2]!.offset)).toBeNull();
    expect(recent.between(list[2]!.offset, list[2]!.offset)).toEqual([]);
  });
});
