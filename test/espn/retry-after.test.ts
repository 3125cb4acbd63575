import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/espn/retry-after.js';

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
