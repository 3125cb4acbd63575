import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, TokenBucket } from '../../src/core/token-bucket.js';

describe('TokenBucket', () => {
  it('grants its burst at once, then refills at its rate, never above the burst', () => {
    const bucket = new TokenBucket({ rate: 2, burst: 3 }, 0);
    expect([0, 0, 0].map((t) => bucket.take(t).ok)).toEqual([true, true, true]);
    expect(bucket.take(0)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(bucket.take(500)).toEqual({ ok: true, waitMs: 0 });
    expect(bucket.level(60_000)).toBe(3);
    expect(bucket.full(60_000)).toBe(true);
  });

  it('grants on credit within the longest wait, and the debt delays what follows', () => {
    const bucket = new TokenBucket({ rate: 10, burst: 1 }, 0);
    expect(bucket.take(0, 1, 250)).toEqual({ ok: true, waitMs: 0 });
    expect(bucket.take(0, 1, 250)).toEqual({ ok: true, waitMs: 100 });
    expect(bucket.take(0, 1, 250)).toEqual({ ok: true, waitMs: 200 });
    // A third on credit would wait 300 ms: refused, and nothing taken.
    expect(bucket.take(0, 1, 250)).toEqual({ ok: false, retryAfterMs: 300 });
    expect(bucket.level(0)).toBe(-2);
  });

  it('tells a bucket with no rate to come back in a minute', () => {
    const bucket = new TokenBucket({ rate: 0, burst: 1 }, 0);
    expect(bucket.take(0).ok).toBe(true);
    expect(bucket.take(10_000)).toEqual({ ok: false, retryAfterMs: 60_000 });
  });
});

describe('retryAfterSeconds', () => {
  it('rounds a refusal up to whole seconds, never below one', () => {
    expect([1, 500, 1000, 1001, 60_000].map(retryAfterSeconds)).toEqual([1, 1, 1, 2, 60]);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});
