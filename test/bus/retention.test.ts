import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import { createRedisBus } from '../../src/bus/redis.js';
import { DEFAULT_RETENTION_MS, DEFAULT_RETENTION_PER_LEAGUE } from '../../src/bus/options.js';
import type { Bus } from '../../src/bus/types.js';
import { getTestRedis } from '../support/redis.js';
import { makeEvents } from '../support/events.js';
import { gameKey } from './bus-contract.js';

const HOUR = 3_600_000;
const redis = await getTestRedis();

async function seqs(bus: Bus): Promise<number[]> {
  return (await bus.read(null, 10_000)).map((e) => e.seq);
}

describe('retention by time on the memory bus', () => {
  it('defaults to 36 hours with a cap of 250,000 events per league', () => {
    const bus = createMemoryBus();
    expect([bus.retentionMs, DEFAULT_RETENTION_MS, DEFAULT_RETENTION_PER_LEAGUE]).toEqual([
      36 * HOUR,
      36 * HOUR,
      250_000,
    ]);
  });

  it('trims what is older than the window and keeps what is younger, however few events', async () => {
    let clock = 10 * HOUR;
    const bus = createMemoryBus({ retention: 1_000, retentionMs: 2 * HOUR, now: () => clock });
    const g = gameKey('t1');
    const old = await bus.commit(g, makeEvents(g, 1, 3), { meta: null });
    clock += HOUR;
    await bus.commit(g, makeEvents(g, 4, 2), { meta: null });
    expect(await seqs(bus)).toEqual([1, 2, 3, 4, 5]);
    clock += HOUR + 1;
    await bus.commit(g, makeEvents(g, 6, 1), { meta: null });
    // The first commit is now 2 h + 1 ms old; the second 1 h + 1 ms.
    expect(await seqs(bus)).toEqual([4, 5, 6]);
    expect((await bus.bounds()).trimmedThrough).toBe(old?.at(-1)?.offset);
    await bus.close();
  });

  it('caps by count, and tells how many events younger than the window the cap cut', async () => {
    const cut: number[] = [];
    const bus = createMemoryBus({
      retention: 5,
      retentionMs: HOUR,
      now: () => 1_000,
      onCapped: (n) => cut.push(n),
    });
    const g = gameKey('t2');
    await bus.commit(g, makeEvents(g, 1, 8), { meta: null });
    expect(await seqs(bus)).toEqual([4, 5, 6, 7, 8]);
    expect(cut.reduce((a, b) => a + b, 0)).toBe(3);
    await bus.close();
  });

  it('refuses a window that is not a positive integer of milliseconds, naming the field', () => {
    expect(() => createMemoryBus({ retentionMs: 0 })).toThrow(/retentionMs must be a positive integer/);
    expect(() => createMemoryBus({ retentionMs: 1.5 })).toThrow(/retentionMs/);
  });
});

describe.skipIf(!redis)('retention by time on Redis', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  });

  async function open(options: Omit<Parameters<typeof createRedisBus>[0], 'url'>): Promise<Bus> {
    const r = (await getTestRedis()) as NonNullable<typeof redis>;
    cleanups.push(() => r.cleanup());
    const bus = createRedisBus({ url: r.url, prefix: r.prefix, ...options });
    cleanups.push(() => bus.close());
    return bus;
  }

  it('trims events older than the window by their id, keeps the younger, and records the trim', async () => {
    const r = (await getTestRedis()) as NonNullable<typeof redis>;
    cleanups.push(() => r.cleanup());
    const bus = createRedisBus({ url: r.url, prefix: r.prefix, retention: 1_000, retentionMs: HOUR });
    cleanups.push(() => bus.close());
    // Redis stamps ids with its own clock, so events from hours ago are written with their ids.
    const raw = new Redis(r.url);
    cleanups.push(async () => void raw.disconnect());
    const g = gameKey('r1');
    const now = Date.now();
    const aged = makeEvents(g, 1, 3);
    const ages = [3 * HOUR, 2 * HOUR, HOUR / 2];
    for (const [i, event] of aged.entries()) {
      await raw.xadd(`${r.prefix}events`, `${now - (ages[i] ?? 0)}-0`, 'e', JSON.stringify(event));
    }
    expect(await seqs(bus)).toEqual([1, 2, 3]);
    await bus.commit(g, makeEvents(g, 4, 2), { meta: null });
    expect(await seqs(bus)).toEqual([3, 4, 5]);
    expect((await bus.bounds()).trimmedThrough).toBe(`${now - 2 * HOUR}-0`);
  });

  it('keeps events younger than the window however many commits pass', async () => {
    const bus = await open({ retention: 1_000, retentionMs: HOUR });
    const g = gameKey('r2');
    for (let i = 0; i < 20; i++) await bus.commit(g, makeEvents(g, i * 10 + 1, 10), { meta: null });
    expect(await seqs(bus)).toHaveLength(200);
    expect((await bus.bounds()).trimmedThrough).toBeNull();
  });

  it('caps by count and reports the events younger than the window it cut', async () => {
    const cut: number[] = [];
    const bus = await open({ retention: 10, retentionMs: HOUR, onCapped: (n) => cut.push(n) });
    const g = gameKey('r3');
    await bus.commit(g, makeEvents(g, 1, 25), { meta: null });
    expect(await seqs(bus)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(cut).toEqual([15]);
    // The commit's ids are the events' own, without the cap's report.
    const more = await bus.commit(g, makeEvents(g, 26, 1), { meta: null });
    expect(more?.map((e) => e.seq)).toEqual([26]);
  });
});
