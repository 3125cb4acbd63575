import { describe, expect, it } from 'vitest';
import { easternDay, easternDayOf, easternInstant } from '../../src/espn/eastern-day.js';

describe('the Eastern day ESPN files games by', () => {
  it('keeps a 22:30 Eastern tip-off on its day although UTC has moved on', () => {
    // Winter (EST, UTC-5): 22:30 Eastern on 1 December is 03:30 UTC on 2 December.
    expect(easternDayOf('2024-12-02T03:30Z')).toBe('20241201');
    expect(easternDayOf('2024-12-02T04:59Z')).toBe('20241201');
    expect(easternDayOf('2024-12-02T05:00Z')).toBe('20241202');
    // Summer (EDT, UTC-4): the day ends at 04:00 UTC.
    expect(easternDayOf('2025-06-04T01:30Z')).toBe('20250603');
    expect(easternDayOf('2025-06-04T03:59Z')).toBe('20250603');
    expect(easternDayOf('2025-06-04T04:00Z')).toBe('20250604');
    expect(easternDayOf('not a date')).toBeUndefined();
    expect(easternDayOf(undefined)).toBeUndefined();
  });

  it('finds the instant of an Eastern wall-clock time, daylight-saving changes included', () => {
    expect(new Date(easternInstant('20241201', 22, 30)).toISOString()).toBe('2024-12-02T03:30:00.000Z');
    expect(new Date(easternInstant('20250603', 21, 30)).toISOString()).toBe('2025-06-04T01:30:00.000Z');
    // The days of the changes: 9 March 2025 (EST → EDT at 02:00) and 2 November 2025 (back).
    expect(new Date(easternInstant('20250309', 0, 30)).toISOString()).toBe('2025-03-09T05:30:00.000Z');
    expect(new Date(easternInstant('20250309', 19, 0)).toISOString()).toBe('2025-03-09T23:00:00.000Z');
    expect(new Date(easternInstant('20251102', 0, 30)).toISOString()).toBe('2025-11-02T04:30:00.000Z');
    expect(new Date(easternInstant('20251102', 19, 0)).toISOString()).toBe('2025-11-03T00:00:00.000Z');
    for (const day of ['20250309', '20251102', '20241231', '20240229']) {
      for (const hour of [0, 12, 19, 23]) expect(easternDay(easternInstant(day, hour))).toBe(day);
    }
  });
});
