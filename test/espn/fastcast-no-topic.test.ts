import { describe, expect, it } from 'vitest';
import { createNoTopicWatch } from '../../src/espn/fastcast-no-topic.js';

describe('the no-topic watch', () => {
  function watch() {
    const timers: Array<{ at: number; fn: () => void }> = [];
    let clock = 0;
    let session: string | null = 's1';
    const expired: string[] = [];
    const w = createNoTopicWatch({
      timeoutMs: 10_000,
      retryMs: 30_000,
      later: (ms, fn) => timers.push({ at: clock + ms, fn }),
      session: () => session,
      expired: (t) => expired.push(t),
      random: () => 0.999,
    });
    const advance = (ms: number): void => {
      clock += ms;
      for (const t of timers.splice(0))
        if (t.at <= clock) t.fn();
        else timers.push(t);
    };
    return { w, expired, advance, setSession: (s: string | null) => (session = s) };
  }

  it('expires a subscription left unanswered, and only that one', () => {
    const s = watch();
    s.w.subscribed('a', 's1');
    s.w.subscribed('b', 's1');
    s.advance(5_000);
    s.w.answered('b');
    s.advance(4_999);
    expect(s.expired).toEqual([]);
    s.advance(1);
    expect(s.expired).toEqual(['a']);
  });

  it('forgets a subscription sent again, on another session, or of a topic forgotten', () => {
    const s = watch();
    s.w.subscribed('a', 's1');
    s.advance(5_000);
    s.w.subscribed('a', 's1');
    s.advance(5_000);
    expect(s.expired).toEqual([]);
    s.advance(5_000);
    expect(s.expired).toEqual(['a']);
    s.w.subscribed('b', 's1');
    s.setSession('s2');
    s.w.subscribed('c', 's2');
    s.w.forget('c');
    s.advance(10_000);
    expect(s.expired).toEqual(['a']);
  });

  it('backs off from retryMs, doubling up to ten times it, from the start again after a document', () => {
    const s = watch();
    const delays = Array.from({ length: 6 }, () => s.w.retryDelay('a'));
    expect(delays.map((d) => Math.round(d / 1000))).toEqual([30, 60, 120, 240, 300, 300]);
    s.w.delivered('a');
    expect(Math.round(s.w.retryDelay('a') / 1000)).toBe(30);
    expect(Math.round(s.w.retryDelay('b') / 1000)).toBe(30);
  });
});
