import { describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../src/bus/redis-connection.js';
import { Pacer } from '../../../workers/destinations/pacing.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../../support/redis.js';

const redisAvailable = await getTestRedis();

/**
 * The pacing as two workers share it, on real Redis: a reservation is counted against what the
 * platform last said was left of its bucket, so a request in flight is never overlooked.
 */
describe.skipIf(!redisAvailable)('Pacer (real Redis)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  function pacers(n: number): Pacer[] {
    const connections: RedisConnection[] = [];
    for (let i = 0; i < n; i++) connections.push(connectRedis(redis.url, { name: 'courtside-test' }));
    closers.push(async () => {
      for (const c of connections) c.disconnect();
    });
    return connections.map((c) => new Pacer(c, redis.prefix));
  }

  it('spaces slots across workers', async () => {
    const [a, b] = pacers(2);
    expect(await a!.reserve('d', 1_000)).toEqual({ waitMs: 0, seq: 1 });
    const second = await b!.reserve('d', 1_000);
    expect(second.seq).toBe(2);
    expect(second.waitMs).toBeGreaterThan(900);
    expect(second.waitMs).toBeLessThanOrEqual(1_000);
  });

  it('a reservation past what the bucket has left waits for its reset, before any answer says 0', async () => {
    const [a, b] = pacers(2);
    // Five reservations, one answered so far: four left after the first, so the fifth still fits.
    for (let i = 1; i <= 5; i++) expect((await (i % 2 ? a : b)!.reserve('d', 0)).seq).toBe(i);
    await a!.answered('d', 1, 4, 3_000);
    expect(await b!.heldFor('d', 5)).toBe(0);
    // The sixth is one more than the bucket holds, while the answers to 2-5 are still in flight.
    const sixth = await b!.reserve('d', 0);
    expect(sixth.seq).toBe(6);
    expect(sixth.waitMs).toBeGreaterThan(2_500);
    expect(await a!.heldFor('d', 6)).toBeGreaterThan(2_500);
  });

  it('a late answer from the same bucket can only lower what is left', async () => {
    const [a, b] = pacers(2);
    for (let i = 1; i <= 3; i++) await a!.reserve('d', 0);
    // The answer to 3 came first: two left, so 4 and 5 fit.
    await a!.answered('d', 3, 2, 3_000);
    expect(await a!.heldFor('d', 5)).toBe(0);
    // Then the one to 2, which saw a request of another client too: one left after 2, so 4 waits.
    await b!.answered('d', 2, 1, 3_000);
    expect(await a!.heldFor('d', 3)).toBe(0);
    const fourth = await b!.reserve('d', 0);
    expect(fourth.seq).toBe(4);
    expect(fourth.waitMs).toBeGreaterThan(2_500);
  });

  it('once the bucket has reset, the next answer describes the new one', async () => {
    const [a] = pacers(1);
    await a!.reserve('d', 0);
    await a!.answered('d', 1, 0, 50);
    expect(await a!.heldFor('d', 2)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await a!.heldFor('d', 2)).toBe(0);
    const next = await a!.reserve('d', 0);
    expect(next).toEqual({ waitMs: 0, seq: 2 });
    await a!.answered('d', 2, 1, 3_000);
    expect((await a!.reserve('d', 0)).waitMs).toBe(0);
    expect((await a!.reserve('d', 0)).waitMs).toBeGreaterThan(2_500);
  });

  it('a hold (a 429) holds every reservation', async () => {
    const [a, b] = pacers(2);
    const { seq } = await a!.reserve('d', 0);
    await b!.hold('d', 2_000);
    expect(await a!.heldFor('d', seq)).toBeGreaterThan(1_500);
    expect((await b!.reserve('d', 0)).waitMs).toBeGreaterThan(1_500);
  });
});
