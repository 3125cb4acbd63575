import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BusUnavailableError, UpstreamHttpError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { pollErrors } from '../../src/core/metrics.js';
import { BUS_RETRY_MS, createPollerBook, errorInfo, newStatus } from '../../streams/poller-status.js';

const T0 = Date.UTC(2025, 0, 1, 0, 0);

function book(random = () => 1 - Number.EPSILON) {
  const clock = { t: T0 };
  return {
    clock,
    book: createPollerBook({ logger: silentLogger, now: () => clock.t, random, backoffMaxMs: 20_000 }),
  };
}

const errors = async (code: string) =>
  (await pollErrors.get()).values.find(
    (v) => v.labels.code === code && v.labels.poller === 'summary' && v.labels.league === 'womens',
  )?.value ?? 0;

describe('poller status', () => {
  it('starts idle with no history', () => {
    expect(newStatus('summary', 'mens', 'g1', 3_000)).toEqual({
      poller: 'summary',
      league: 'mens',
      gameId: 'g1',
      state: 'idle',
      gameState: null,
      intervalMs: 3_000,
      lastSuccessAt: null,
      lastErrorAt: null,
      lastError: null,
      failures: 0,
      backoffMs: null,
    });
  });

  it('backs off exponentially from the base up to the cap on upstream errors, counting each', async () => {
    const { clock, book: b } = book();
    const status = newStatus('summary', 'womens', 'g1', 3_000);
    const before = await errors('UPSTREAM_HTTP');
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.t += 1_000;
      delays.push(b.failed(status, new UpstreamHttpError(503, 'http://upstream/x'), 3_000));
    }
    // random() just under 1: the top of each window, 3 s · 2^n capped at 20 s.
    expect(delays).toEqual([3_000, 6_000, 12_000, 20_000, 20_000]);
    expect(status).toMatchObject({
      state: 'backoff',
      failures: 5,
      backoffMs: 20_000,
      lastError: { code: 'UPSTREAM_HTTP' },
      lastErrorAt: new Date(T0 + 5_000).toISOString(),
    });
    expect((await errors('UPSTREAM_HTTP')) - before).toBe(5);
  });

  it('retries bus errors after half a second (the base delay when shorter), without growing it', () => {
    const { book: b } = book();
    const status = newStatus('summary', 'womens', 'g1', 3_000);
    const delays = [1, 2, 3].map(() => b.failed(status, new BusUnavailableError('commit'), 3_000));
    expect(delays).toEqual([BUS_RETRY_MS, BUS_RETRY_MS, BUS_RETRY_MS]);
    expect(BUS_RETRY_MS).toBe(500);
    expect(status.failures).toBe(3);
    expect(b.failed(status, new BusUnavailableError('commit'), 400)).toBe(400);
  });

  it('logs the first bus failure of a streak as a warning and the retries that follow as debug', () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const b = createPollerBook({ logger, now: () => T0, random: () => 0.5, backoffMaxMs: 20_000 });
    const status = newStatus('summary', 'mens', 'g1', 3_000);
    for (let i = 0; i < 3; i++) b.failed(status, new BusUnavailableError('acquireLease'), 3_000);
    b.failed(status, new Error('boom'), 3_000);
    expect(lines.map((l) => l.level)).toEqual([40, 20, 20, 40]);
    expect(lines[0]?.msg).toMatch(/^poll failed: bus\.acquireLease/);
  });

  it('clears failures and backoff on success and stamps the time, keeping the last error', () => {
    const { clock, book: b } = book();
    const status = newStatus('scoreboard', 'womens', null, 10_000);
    b.failed(status, new Error('boom'), 3_000);
    clock.t += 7_000;
    b.succeeded(status);
    expect(status).toMatchObject({
      failures: 0,
      backoffMs: null,
      lastSuccessAt: new Date(T0 + 7_000).toISOString(),
      lastError: { code: 'INTERNAL', message: 'boom' },
    });
  });

  it("names an error by its code, INTERNAL for errors that are not courtside's", () => {
    expect(errorInfo(new BusUnavailableError('commit')).code).toBe('BUS_UNAVAILABLE');
    expect(errorInfo(new TypeError('x'))).toEqual({ code: 'INTERNAL', message: 'x' });
    expect(errorInfo('text')).toEqual({ code: 'INTERNAL', message: 'text' });
  });
});
