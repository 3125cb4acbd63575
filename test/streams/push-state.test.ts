import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { documentArrived, fellBack } from '../../streams/push-health.js';
import { newPushState, setHealth } from '../../streams/push-state.js';

describe('push state', () => {
  it('logs one line when a game moves between push and polling, with the reason, and keeps its status', () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
          done();
        },
      }),
    );
    const key = { league: 'mens' as const, gameId: '1' };
    const push = newPushState(0);
    setHealth(push, documentArrived(push.health, 1000, true), key, logger);
    setHealth(push, documentArrived(push.health, 2000, false), key, logger);
    setHealth(push, fellBack(push.health, 3000, 'socket closed: code 1006'), key, logger);
    expect(lines.map((l) => l.msg)).toEqual([
      'game now fed by push: checkpoint',
      'game now fed by polling: socket closed: code 1006',
    ]);
    expect(lines[1]).toMatchObject({ league: 'mens', gameId: '1', from: 'push', to: 'fallen-back' });
    expect(push.status).toEqual({
      source: 'polling',
      state: 'fallen-back',
      since: new Date(3000).toISOString(),
      reason: 'socket closed: code 1006',
    });
  });
});
