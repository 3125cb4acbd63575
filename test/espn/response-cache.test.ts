import { describe, expect, it } from 'vitest';
import { ResponseCache, type ResponseCacheLimits } from '../../src/espn/response-cache.js';

const entry = (body: unknown, storedAt: number, bytes = 10) => ({
  body,
  etag: '"e"',
  lastModified: undefined,
  storedAt,
  bytes,
});

const cache = (limits: Partial<ResponseCacheLimits> = {}): ResponseCache =>
  new ResponseCache({ maxEntries: 10, maxBytes: 1_000, idleMs: 60_000, ...limits });

describe('ResponseCache', () => {
  it('serves an entry within its TTL and holds it for validators after', () => {
    const c = cache();
    c.set('/a', entry(1, 1000), 500, 1000);
    expect(c.fresh('/a', 500, 1499)?.body).toBe(1);
    expect(c.fresh('/a', 500, 1500)).toBeUndefined();
    expect(c.held('/a')?.etag).toBe('"e"');
  });

  it('evicts the least recently used entry beyond its number of entries', () => {
    const c = cache({ maxEntries: 2 });
    c.set('/a', entry('a', 0), 10, 0);
    c.set('/b', entry('b', 0), 10, 0);
    c.fresh('/a', 10, 1); // touch a: b is now the oldest
    c.set('/c', entry('c', 0), 10, 1);
    expect(c.size).toBe(2);
    expect(c.held('/b')).toBeUndefined();
    expect(c.held('/a')?.body).toBe('a');
    c.clear();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });

  it('keeps the bodies within the byte budget, oldest out first, and counts a replaced body once', () => {
    const c = cache({ maxBytes: 1_000 });
    c.set('/a', entry('a', 0, 400), 10, 0);
    c.set('/b', entry('b', 0, 400), 10, 0);
    c.set('/b', entry('b2', 0, 300), 10, 0);
    expect(c.bytes).toBe(700);
    c.set('/c', entry('c', 0, 400), 10, 0);
    expect(c.held('/a')).toBeUndefined();
    expect(c.bytes).toBe(700);
    expect([c.held('/b')?.body, c.held('/c')?.body]).toEqual(['b2', 'c']);
  });

  it('does not hold a body larger than the whole budget, and keeps the others', () => {
    const c = cache({ maxBytes: 1_000 });
    c.set('/a', entry('a', 0, 400), 10, 0);
    c.set('/huge', entry('huge', 0, 1_001), 10, 0);
    expect(c.held('/huge')).toBeUndefined();
    expect(c.held('/a')?.body).toBe('a');
    expect(c.bytes).toBe(400);
  });

  it('drops an entry unused for the idle time, or twice its TTL when that is longer', () => {
    const c = cache({ idleMs: 60_000 });
    c.set('/finished-summary', entry('s', 0), 2_000, 0);
    c.set('/reference', entry('r', 0), 3_600_000, 0);
    c.set('/polled', entry('p', 0), 2_000, 0);
    // Polled again and again; the others are not asked for.
    for (let t = 3_000; t <= 57_000; t += 3_000) c.set('/polled', entry('p', t), 2_000, t);
    expect(c.held('/finished-summary')?.body).toBe('s');
    c.set('/polled', entry('p', 63_000), 2_000, 63_000);
    expect(c.held('/finished-summary')).toBeUndefined();
    expect(c.held('/reference')?.body).toBe('r');
    expect(c.held('/polled')?.body).toBe('p');
    expect(c.bytes).toBe(20);
    // A fresh hit counts as a use: served within its TTL, the entry is kept.
    c.set('/ops', entry('o', 63_000), 5_000, 63_000);
    for (let t = 66_000; t <= 180_000; t += 3_000) {
      c.set('/polled', entry('p', t), 2_000, t);
      if (t % 30_000 === 0) c.set('/ops', entry('o', t), 5_000, t);
    }
    expect(c.held('/ops')?.body).toBe('o');
    expect(c.fresh('/reference', 3_600_000, 180_000)?.body).toBe('r');
  });
});
