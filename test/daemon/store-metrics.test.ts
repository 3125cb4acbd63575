import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createBus } from '../../src/bus/index.js';
import type { Bus } from '../../src/bus/types.js';
import {
  eventLogRetention,
  eventLogRetentionSeconds,
  eventLogSpan,
  eventLogTrimmed,
  redisUp,
} from '../../src/core/metrics.js';
import { createStoreProbe } from '../../src/daemon/store-metrics.js';
import { makeEvents } from '../support/events.js';
import { freePort } from '../support/free-port.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../support/redis.js';

const value = async (gauge: {
  get(): Promise<{ values: Array<{ value: number }> }>;
}): Promise<number | undefined> => (await gauge.get()).values[0]?.value;

const redis = await getTestRedis();
await redis?.cleanup();

describe.skipIf(!redis)('store gauges, on Redis', () => {
  let r!: TestRedis;
  const closers = redisPerTest((current) => (r = current));

  function redisBus(retention: number): Bus {
    const bus = createBus({ redisUrl: r.url, prefix: r.prefix, retention });
    closers.push(() => bus.close());
    return bus;
  }

  it('reports the retention, whether the log trims, and the age of its oldest event', async () => {
    const bus = redisBus(100);
    const g = { league: 'mens' as const, gameId: `g-${r.prefix}` };
    let now = Date.now();
    const probe = createStoreProbe({ bus, timeoutMs: 1_000, now: () => now });
    expect(await value(eventLogRetention)).toBe(100);
    // The default window, 36 h, in seconds.
    expect(await value(eventLogRetentionSeconds)).toBe(36 * 3_600);

    await bus.commit(g, makeEvents(g, 1, 50), { meta: null });
    const first = (await bus.bounds()).first!;
    now = parseInt(first, 10) + 7_200_000;
    await probe.refresh();
    expect(await value(eventLogTrimmed)).toBe(0);
    expect(await value(eventLogSpan)).toBeCloseTo(7_200, 0);

    // Redis trims in chunks of up to 100 entries past the retention.
    for (let i = 0; i < 4; i++) await bus.commit(g, makeEvents(g, 51 + i * 50, 50), { meta: null });
    const trimmedFirst = (await bus.bounds()).first!;
    expect(trimmedFirst).not.toBe(first);
    now = parseInt(trimmedFirst, 10) + 60_000;
    await probe.refresh();
    expect(await value(eventLogTrimmed)).toBe(1);
    expect(await value(eventLogSpan)).toBeCloseTo(60, 0);
  });

  it('says whether Redis answers a ping', async () => {
    const bus = redisBus(100);
    const live = new Redis(r.url, { maxRetriesPerRequest: 1 });
    closers.push(async () => live.disconnect());
    await createStoreProbe({
      bus,
      redis: { ping: () => live.ping(), topology: 'standalone' },
      timeoutMs: 1_000,
    }).refresh();
    expect(await value(redisUp)).toBe(1);

    const dead = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    closers.push(async () => dead.disconnect());
    await createStoreProbe({
      bus,
      redis: { ping: () => dead.connect().then(() => dead.ping()), topology: 'standalone' },
      timeoutMs: 1_000,
    }).refresh();
    expect(await value(redisUp)).toBe(0);
  });
});

describe('store gauges, without Redis', () => {
  it('export no courtside_redis_up series at all', async () => {
    redisUp.reset();
    await createStoreProbe({ bus: createBus({ retention: 10 }), timeoutMs: 1_000 }).refresh();
    expect((await redisUp.get()).values).toEqual([]);
  });
});

describe('store gauges, when the log does not answer', () => {
  it('gives up after the timeout and keeps the last values', async () => {
    eventLogTrimmed.set(1);
    const stuck: Pick<Bus, 'retention' | 'bounds'> = {
      retention: 10,
      bounds: () => new Promise(() => undefined),
    };
    const started = Date.now();
    await createStoreProbe({ bus: stuck, timeoutMs: 200 }).refresh();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await value(eventLogTrimmed)).toBe(1);
    expect(await value(eventLogRetention)).toBe(10);
  });
});
