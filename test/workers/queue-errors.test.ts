import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { logQueueErrors } from '../../workers/queue-errors.js';

function capture(): { logger: pino.Logger; lines: Array<{ level: number; msg: string; folded?: number }> } {
  const lines: Array<{ level: number; msg: string; folded?: number }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('logQueueErrors', () => {
  it('logs a lost Redis connection as one warning however many retries report it', () => {
    const { logger, lines } = capture();
    const worker = new EventEmitter();
    logQueueErrors(worker, logger, 'alert worker');
    for (let i = 0; i < 25; i++) worker.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    worker.emit('error', new Error('Connection is closed.'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'alert worker: Redis unreachable; reconnecting' });
  });

  it('logs a job that vanished with Redis data as a warning, anything else as an error', () => {
    const { logger, lines } = capture();
    const queue = new EventEmitter();
    logQueueErrors(queue, logger, 'webhook queue');
    queue.emit('error', new Error('Missing key for job e.x. moveToFinished'));
    queue.emit('error', new Error('ERR Error running script: attempt to compare nil with number'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'webhook queue: a job vanished from Redis (Redis lost its data?)'],
      [50, 'webhook queue error'],
    ]);
  });

  it('folds a flood of one error into one line now and a count later', () => {
    vi.useFakeTimers();
    try {
      const { logger, lines } = capture();
      const worker = new EventEmitter();
      const repeats = logQueueErrors(worker, logger, 'alert worker');
      const crossslot = "CROSSSLOT Keys in request don't hash to the same slot";
      for (let i = 0; i < 78_301; i++) worker.emit('error', new Error(crossslot));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 50, msg: 'alert worker error' });
      vi.advanceTimersByTime(30_000);
      expect(lines.map((l) => l.msg)).toEqual([
        'alert worker error',
        'alert worker error (repeated 78300 times in 30 s)',
      ]);
      // The caller's own repeated errors (failed jobs) fold the same way.
      for (let i = 0; i < 5; i++)
        repeats.log('warn', `job ${i} failed: ${crossslot}`, {}, 'event evaluation failed');
      expect(lines).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
