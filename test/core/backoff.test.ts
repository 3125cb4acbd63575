import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay } from '../../src/core/backoff.js';

describe('backoff', () => {
  it('doubles from the base up to the cap, each delay in the upper half of its step', () => {
    const low = { baseMs: 100, maxMs: 2_000, random: () => 0 };
    const high = { baseMs: 100, maxMs: 2_000, random: () => 0.999999 };
    expect([0, 1, 2, 3, 4, 5, 49].map((n) => backoffDelay(n, low))).toEqual([
      50, 100, 200, 400, 800, 1000, 1000,
    ]);
    expect([0, 1, 2, 3, 4, 5, 49].map((n) => backoffDelay(n, high))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000,
    ]);
  });

  it('spreads processes that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(7, { baseMs: 100, maxMs: 2_000 })));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(1_000);
  });

  it('starts again from the base after a success', () => {
    const backoff = new Backoff({ baseMs: 100, maxMs: 10_000, random: () => 0.999999 });
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([100, 200, 400]);
    expect(backoff.attempts).toBe(3);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it('keeps every delay in the upper half of its step, under the cap, for any attempt and draw', () => {
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
  });
});
