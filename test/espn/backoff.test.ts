import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../src/espn/backoff.js';

describe('backoffDelay', () => {
  it('doubles per attempt, keeps half the window and respects the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attempt, r) => {
          const ceiling = Math.min(8000, 100 * 2 ** attempt);
          const delay = backoffDelay(attempt, { baseMs: 100, maxMs: 8000, random: () => r });
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
    expect(backoffDelay(0, { baseMs: 100, maxMs: 8000, random: () => 0 })).toBe(50);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 8000, random: () => 0.999999 })).toBe(800);
  });

  it('spreads delays (jitter)', () => {
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(4, { baseMs: 100, maxMs: 10_000 })));
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-03-17T22:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
  });
  it('reads an HTTP date, a past date meaning now', () => {
    expect(parseRetryAfter('Sun, 17 Mar 2024 22:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 17 Mar 2024 21:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});
