import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepeatedErrorLog } from '../../src/core/repeated-log.js';

interface Line {
  level: number;
  msg: string;
  repeated?: number;
  err?: string;
}

function capture(): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('RepeatedErrorLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the first occurrence at once and the repeats as one line with their count', () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger, { windowMs: 30_000 });
    for (let i = 0; i < 313; i++) {
      log.log(
        'error',
        'CROSSSLOT Keys in request',
        { err: 'CROSSSLOT Keys in request' },
        'alert worker error',
      );
    }
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'alert worker error' })]);
    vi.advanceTimersByTime(30_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 50,
      msg: 'alert worker error (repeated 312 times in 30 s)',
      repeated: 312,
    });
    // Quiet since: the next window closes without a line, and the next error is told at once.
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
    log.log('error', 'CROSSSLOT Keys in request', {}, 'alert worker error');
    expect(lines).toHaveLength(3);
    expect(lines[2]?.msg).toBe('alert worker error');
  });

  it('a failure that goes on costs one line per window, however fast it repeats', () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger, { windowMs: 1_000 });
    for (let ms = 0; ms < 10_000; ms++) {
      log.log('warn', 'connect ECONNREFUSED 127.0.0.1:6379', {}, 'bus: tail read failed');
      vi.advanceTimersByTime(1);
    }
    // 10,000 failures over 10 s: the first line and one summary a second.
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.length).toBeLessThanOrEqual(11);
    expect(lines.slice(1).every((l) => /\(repeated [0-9]+ times in 1 s\)$/.test(l.msg))).toBe(true);
  });

  it('tells different errors apart but folds ones that differ only in numbers', () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger);
    log.log('warn', 'Missing lock for job 17', {}, 'a');
    log.log('warn', 'Missing lock for job 18', {}, 'a');
    log.log('warn', 'READONLY You cannot write against a read only replica', {}, 'b');
    log.log('error', 'Missing lock for job 19', {}, 'c');
    expect(lines.map((l) => l.msg)).toEqual(['a', 'b', 'c']);
    // Flushed (at shutdown) before the window ran out: the repeats so far, over the time so far.
    vi.advanceTimersByTime(4_000);
    log.flush();
    expect(lines.map((l) => l.msg)).toEqual(['a', 'b', 'c', 'a (repeated once in 4 s)']);
  });
});
