import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
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
});
