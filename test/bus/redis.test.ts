import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/model/events.js';
import { createBus } from '../../src/bus/index.js';
import { createRedisBus } from '../../src/bus/redis.js';
import { EPOCH_SCRIPT } from '../../src/bus/redis-scripts.js';
import { compareOffsets, type Bus } from '../../src/bus/types.js';
import { freePort } from '../support/free-port.js';
import { getTestRedis } from '../support/redis.js';
import { RedisProcess } from '../support/redis-process.js';
import { makeEvents } from '../support/events.js';
import { busContract, collect, gameKey } from './bus-contract.js';

const redis = await getTestRedis();
const skipReason = 'no Redis: set REDIS_URL or run a Docker engine';

busContract(
  'redis',
  redis &&
    (async ({ retention }) => {
      const r = (await getTestRedis()) as NonNullable<typeof redis>; // a fresh prefix per test
      const bus = createRedisBus({
        url: r.url,
        prefix: r.prefix,
        ...(retention !== undefined ? { retention } : {}),
      });
      return {
        bus,
        advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        // Real time: long enough to outlast a few commands under load, short enough to wait out.
        leaseTtlMs: 1_500,
        exactRetention: false,
        async cleanup() {
          await bus.close();
          await r.cleanup();
        },
      };
    }),
  skipReason,
);

describe.skipIf(!redis)('createRedisBus', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });

  async function open(): Promise<{ url: string; prefix: string }> {
    const r = (await getTestRedis()) as NonNullable<typeof redis>;
    cleanups.push(() => r.cleanup());
    return r;
  }

  it('lays out keys under the prefix: one stream, JSON meta, a hash of entries, a games set', async () => {
    const { url, prefix } = await open();
    const bus = createRedisBus({ url, prefix });
    cleanups.push(() => bus.close());
    const g = gameKey('401');
    await bus.acquireLease(g, 'me', 10_000);
    await bus.commit(g, makeEvents(g, 1, 2), { meta: { seq: 2 }, set: [['p1', { id: 'p1' }]] }, 'me');

    const raw = new Redis(url);
    cleanups.push(async () => void raw.disconnect());
    expect(await raw.get(`${prefix}lease:mens:401`)).toBe('me');
    expect(await raw.xlen(`${prefix}events`)).toBe(2);
    expect(await raw.get(`${prefix}game:mens:401:meta`)).toBe('{"seq":2}');
    expect(await raw.hgetall(`${prefix}game:mens:401:entries`)).toEqual({ p1: '{"id":"p1"}' });
    expect(await raw.smembers(`${prefix}games`)).toEqual(['mens:401']);
    const [[, fields] = ['', []]] = (await raw.xrange(`${prefix}events`, '-', '+', 'COUNT', 1)) as Array<
      [string, string[]]
    >;
    expect(fields[0]).toBe('e');
    expect(JSON.parse(fields[1] as string)).toMatchObject({ id: 'mens-401-1-score.changed', seq: 1 });
  });

  it('ends a tail with an error when Redis refuses the read instead of retrying forever', async () => {
    const { url, prefix } = await open();
    const raw = new Redis(url);
    cleanups.push(async () => void raw.disconnect());
    await raw.set(`${prefix}events`, 'not a stream');
    const bus = createRedisBus({ url, prefix });
    cleanups.push(() => bus.close());
    const drain = async (): Promise<void> => {
      for await (const batch of bus.tail('0-0')) expect(batch).toBeUndefined();
    };
    await expect(drain()).rejects.toMatchObject({ code: 'BUS_UNAVAILABLE', message: /WRONGTYPE/ });
  });

  it('createBus picks Redis for a URL and memory without one', async () => {
    const { url, prefix } = await open();
    const onRedis = createBus({ redisUrl: url, prefix, retention: 10 });
    const inMemory = createBus({ retention: 10 });
    expect([onRedis.kind, onRedis.retention, inMemory.kind]).toEqual(['redis', 10, 'memory']);
    await Promise.all([onRedis.close(), inMemory.close()]);
  });

  it('two instances on one prefix both tail every event from both', async () => {
    const { url, prefix } = await open();
    const a = createRedisBus({ url, prefix });
    const b = createRedisBus({ url, prefix });
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const tailA = collect(a, null);
    const tailB = collect(b, null);
    // Both tails have fixed their start once a command sent after them has been answered.
    await Promise.all([a.bounds(), b.bounds()]);

    const write = async (bus: Bus, id: string): Promise<GameEvent[]> => {
      const g = gameKey(id, id === '601' ? 'mens' : 'womens');
      const out: GameEvent[] = [];
      for (let i = 0; i < 20; i++)
        out.push(...((await bus.commit(g, makeEvents(g, i * 2 + 1, 2), { meta: i })) ?? []));
      return out;
    };
    const committed = (await Promise.all([write(a, '601'), write(b, '602')])).flat();
    const expected = committed.map((e) => e.offset as string).sort(compareOffsets);
    expect(expected.length).toBe(80);
    const [gotA, gotB] = await Promise.all([tailA.until(80), tailB.until(80)]);
    await Promise.all([tailA.stop(), tailB.stop()]);
    expect(gotA.map((e) => e.offset)).toEqual(expected);
    expect(gotB.map((e) => e.offset)).toEqual(expected);
  });
});

describe.skipIf(!redis)('the epoch script (data loss detection)', () => {
  it('raises trimmed-through to what an instance saw, but never into the new dataset', async () => {
    const r = (await getTestRedis()) as NonNullable<typeof redis>;
    const client = new Redis(r.url);
    try {
      const keys = [`${r.prefix}epoch`, `${r.prefix}events:trimmed`, `${r.prefix}events`];
      const run = (known: string, seen: string): Promise<string> =>
        client.eval(EPOCH_SCRIPT, 3, ...keys, 'new-epoch', known, seen) as Promise<string>;
      // A dataset that already holds entries starts at its first entry.
      const first = (await client.xadd(keys[2] as string, '5000-0', 'e', '{}')) as string;
      expect(await run('', '')).toBe('new-epoch@5000');
      expect(await client.get(keys[1] as string)).toBeNull();
      // An instance from the lost dataset that saw up to 4000-7: everything through it is gone.
      await run('old-epoch', '4000-7');
      expect(await client.get(keys[1] as string)).toBe('4000-7');
      // One whose tail already read the new dataset's entries must not hide them.
      await run('other-old-epoch', '5000-3');
      expect(await client.get(keys[1] as string)).toBe('4999-999999999999999');
      expect(compareOffsets(first, '4999-999999999999999')).toBeGreaterThan(0);
      // Never lowered; the current epoch raises nothing.
      await run('old-epoch', '100-0');
      await run('new-epoch@5000', '9000-0');
      expect(await client.get(keys[1] as string)).toBe('4999-999999999999999');
    } finally {
      client.disconnect();
      await r.cleanup();
    }
  });
});

// These start their own redis-server child, so they need the binary, not a shared Redis.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedisServer) console.warn('[skip] restart tests skipped: no redis-server binary on PATH');

describe.skipIf(!hasRedisServer)('createRedisBus against its own redis-server', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });

  it('fails commands promptly with BUS_UNAVAILABLE while Redis is unreachable', async () => {
    const port = await freePort(); // nothing listens there
    const bus = createRedisBus({ url: `redis://127.0.0.1:${port}`, prefix: 'courtside-test:none:' });
    cleanups.push(() => bus.close());
    const started = Date.now();
    await expect(bus.bounds()).rejects.toMatchObject({
      code: 'BUS_UNAVAILABLE',
      // The connection's own error, not ioredis's "Reached the max retries per request limit".
      message: `bus.bounds failed: Redis unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    // Bounded retries: callers hear about it in well under the 10 s a stuck poll would cost.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a tail survives a Redis restart and delivers what is committed after it', async () => {
    const port = await freePort();
    const server = await RedisProcess.start(port);
    cleanups.push(() => server.stop());
    const logs: Array<{ msg: string; role?: string }> = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const bus = createRedisBus({ url: `redis://127.0.0.1:${port}`, retention: 1_000, logger });
    cleanups.push(() => bus.close());
    const g = gameKey('701');
    let dataLost = 0;
    bus.onDataLost(() => dataLost++);

    const tail = collect(bus, null);
    await bus.bounds();
    const before = (await bus.commit(g, makeEvents(g, 1, 3), { meta: 1 })) ?? [];
    await tail.until(3);

    // SIGKILL mid-tail: the tail's blocked XREAD loses its connection.
    await server.stop();
    await expect(bus.commit(g, makeEvents(g, 4, 1), { meta: 2 })).rejects.toMatchObject({
      code: 'BUS_UNAVAILABLE',
    });
    await server.start();

    // No persistence: the restarted Redis has an empty stream. Its new ids are time-based, so they
    // are still after the tail's last id: the tail resumes and loses nothing committed from now on.
    // What was committed before the crash is gone from the log (a `since` from before the restart
    // cannot be replayed): that is the price of running Redis without AOF/RDB.
    const after = await retry(() => bus.commit(g, makeEvents(g, 4, 3), { meta: 3 }));
    const got = await tail.until(6);
    await new Promise((r) => setTimeout(r, 50));
    await tail.stop();
    expect(got.map((e) => e.offset)).toEqual([...before, ...(after ?? [])].map((e) => e.offset));
    expect(got.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await bus.read(null, 10)).toHaveLength(3);
    // The lost offsets count as trimmed, so a resume from before the restart is reported as a gap
    // while a resume from the newest offset seen before it still loses nothing.
    const lastBefore = before.at(-1)?.offset as string;
    expect((await bus.bounds()).trimmedThrough).toBe(lastBefore);
    expect((await bus.read(lastBefore, 10)).map((e) => e.seq)).toEqual([4, 5, 6]);
    // However many reconnect attempts it took: one line for the loss, one for the recovery.
    const said = (text: string): number =>
      logs.filter((l) => l.msg.includes(text) && l.role !== 'tail').length;
    expect([said('connection lost'), said('connection recovered'), said('lost its data')]).toEqual([1, 1, 1]);
    expect(dataLost).toBe(1);
  });
});

async function retry<T>(fn: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
