import { describe, expect, it } from 'vitest';
import { createResyncLimiter, DEFAULT_RESYNC_LIMIT } from '../../src/espn/fastcast-resync-limit.js';

describe('resync limiter', () => {
  it('pauses a topic on its 10th resync within 2 minutes by default, and counts it again after', () => {
    const limiter = createResyncLimiter(0);
    expect(limiter.limit).toEqual(DEFAULT_RESYNC_LIMIT);
    for (let i = 0; i < 9; i++) expect(limiter.tooMany('a', i * 10_000)).toBe(false);
    expect(limiter.paused('a')).toBe(false);
    expect(limiter.tooMany('a', 90_000)).toBe(true);
    expect(limiter.paused('a')).toBe(true);
    expect(limiter.paused('b')).toBe(false);
    expect(limiter.resume('a')).toBe(true);
    expect(limiter.paused('a')).toBe(false);
    // The pause started the count again: 9 more are not yet too many.
    for (let i = 0; i < 9; i++) expect(limiter.tooMany('a', 700_000 + i)).toBe(false);
    expect(limiter.tooMany('a', 700_009)).toBe(true);
  });

  it('forgets resyncs older than the window', () => {
    const limiter = createResyncLimiter(0, { count: 3, windowMs: 1_000, pauseMs: 5_000 });
    expect(limiter.tooMany('a', 0)).toBe(false);
    expect(limiter.tooMany('a', 500)).toBe(false);
    // The one at 0 is 1 s old: out of the window, so this is the second, not the third.
    expect(limiter.tooMany('a', 1_000)).toBe(false);
    expect(limiter.tooMany('a', 1_400)).toBe(true);
  });

  it('keeps each topic its own count', () => {
    const limiter = createResyncLimiter(0, { count: 2, windowMs: 1_000, pauseMs: 5_000 });
    expect(limiter.tooMany('a', 0)).toBe(false);
    expect(limiter.tooMany('b', 1)).toBe(false);
    expect(limiter.tooMany('b', 2)).toBe(true);
    expect(limiter.paused('a')).toBe(false);
  });

  it('spaces checkpoints of one topic by the minimum, queued ones counted as taken', () => {
    const limiter = createResyncLimiter(5_000);
    expect(limiter.wait('a', 0)).toBe(0);
    expect(limiter.wait('a', 1_000)).toBe(4_000);
    // The one just queued goes at 5 s: the next waits until 10 s.
    expect(limiter.wait('a', 2_000)).toBe(8_000);
    expect(limiter.wait('b', 2_000)).toBe(0);
    expect(limiter.wait('a', 20_000)).toBe(0);
  });

  it('forgets a topic: its pause, count and spacing', () => {
    const limiter = createResyncLimiter(5_000, { count: 2, windowMs: 10_000, pauseMs: 5_000 });
    limiter.wait('a', 0);
    limiter.tooMany('a', 0);
    expect(limiter.tooMany('a', 1)).toBe(true);
    limiter.forget('a');
    expect(limiter.paused('a')).toBe(false);
    // A pause ended after the topic was forgotten asks for nothing again.
    expect(limiter.resume('a')).toBe(false);
    expect(limiter.wait('a', 1)).toBe(0);
    expect(limiter.tooMany('a', 2)).toBe(false);
  });
});
