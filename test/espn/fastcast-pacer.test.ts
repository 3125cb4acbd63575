import { describe, expect, it } from 'vitest';
import { createPacer, PacerOptionsError } from '../../src/espn/fastcast-pacer.js';

/** Virtual time: `later` queues, `advance` runs what falls due in order. */
function virtualClock() {
  let t = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    later: (ms: number, fn: () => void) => void timers.push({ at: t + ms, fn }),
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers = timers.slice(1);
        t = next.at;
        next.fn();
      }
      t = end;
    },
  };
}

describe('subscription pacer', () => {
  it('runs a slate of 165 at 10 a second after a burst of 10, never more in any second', () => {
    const clock = virtualClock();
    const pacer = createPacer({ ratePerSecond: 10, burst: 10, ...clock });
    const ran: number[] = [];
    for (let i = 0; i < 165; i++) pacer.run(`game${i}`, () => ran.push(clock.now()));
    expect(ran).toHaveLength(10);
    expect(pacer.queued).toBe(155);
    clock.advance(30_000);
    expect(ran).toHaveLength(165);
    // Every one-second window holds the burst at most, plus what one second refills.
    for (const start of ran)
      expect(ran.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(20);
    expect(ran.at(-1)).toBeGreaterThanOrEqual(15_500);
    expect(ran.at(-1)).toBeLessThanOrEqual(16_000);
  });

  it('runs a key queued twice once, with its latest function, and forgets what it is told to', () => {
    const clock = virtualClock();
    const pacer = createPacer({ ratePerSecond: 2, burst: 1, ...clock });
    const ran: string[] = [];
    pacer.run('a', () => ran.push('a1'));
    pacer.run('b', () => ran.push('b1'));
    pacer.run('c', () => ran.push('c1'));
    pacer.run('b', () => ran.push('b2'));
    pacer.forget('c');
    clock.advance(5_000);
    expect(ran).toEqual(['a1', 'b2']);
    pacer.run('d', () => ran.push('d1'));
    expect(ran).toEqual(['a1', 'b2', 'd1']);
  });

  it('drops everything queued on clear, and runs again afterwards', () => {
    const clock = virtualClock();
    const pacer = createPacer({ ratePerSecond: 1, burst: 1, ...clock });
    const ran: string[] = [];
    pacer.run('a', () => ran.push('a'));
    pacer.run('b', () => ran.push('b'));
    pacer.clear();
    clock.advance(2_000);
    expect(ran).toEqual(['a']);
    pacer.run('c', () => ran.push('c'));
    expect(ran).toEqual(['a', 'c']);
  });

  it.each([
    [{ ratePerSecond: 0, burst: 1 }, /ratePerSecond/],
    [{ ratePerSecond: 1, burst: 0.5 }, /burst/],
  ])('refuses %o naming the parameter', (bad, message) => {
    const clock = virtualClock();
    expect(() => createPacer({ ...bad, ...clock })).toThrow(PacerOptionsError);
    expect(() => createPacer({ ...bad, ...clock })).toThrow(message);
  });
});
