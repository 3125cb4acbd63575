import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay } from '../../src/core/backoff.js';

describe('backoff', () => {
  it('doubles from the base up to the cap, each delay in the upper half of its step', () => {
    const low = { baseMs: 100, capMs: 2_000, random: () => 0 };
    const high = { baseMs: 100, capMs: 2_000, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => backoffDelay(n, low))).toEqual([
      50, 100, 200, 400, 800, 1000, 1000,
    ]);
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => backoffDelay(n, high))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000,
    ]);
  });

  it('spreads processes that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(8, { baseMs: 100, capMs: 2_000 })));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(1_000);
  });

  it('starts again from the base after a success', () => {
    const backoff = new Backoff({ baseMs: 100, capMs: 10_000, random: () => 0.999999 });
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([100, 200, 400]);
    expect(backoff.attempts).toBe(3);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });
});
