import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/espn/response-cache.js';

const entry = (body: unknown, storedAt: number) => ({ body, etag: '"e"', lastModified: undefined, storedAt });

describe('ResponseCache', () => {
  it('serves an entry within its TTL and holds it for validators after', () => {
    const cache = new ResponseCache(10);
    cache.set('/a', entry(1, 1000));
    expect(cache.fresh('/a', 500, 1499)?.body).toBe(1);
    expect(cache.fresh('/a', 500, 1500)).toBeUndefined();
    expect(cache.held('/a')?.etag).toBe('"e"');
  });

  it('evicts the least recently used entry beyond its size', () => {
    const cache = new ResponseCache(2);
    cache.set('/a', entry('a', 0));
    cache.set('/b', entry('b', 0));
    cache.fresh('/a', 10, 1); // touch a: b is now the oldest
    cache.set('/c', entry('c', 0));
    expect(cache.size).toBe(2);
    expect(cache.held('/b')).toBeUndefined();
    expect(cache.held('/a')?.body).toBe('a');
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
