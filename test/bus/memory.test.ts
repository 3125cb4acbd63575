import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import { DEFAULT_RETENTION } from '../../src/bus/options.js';
import { makeEvents } from '../support/events.js';
import { busContract, collect, gameKey } from './bus-contract.js';

busContract('memory', async ({ retention }) => {
  // A virtual clock: lease expiry is exercised without sleeping.
  let clock = 1_700_000_000_000;
  const bus = createMemoryBus({ ...(retention !== undefined ? { retention } : {}), now: () => clock });
  return {
    bus,
    async advance(ms) {
      clock += ms;
    },
    leaseTtlMs: 30_000,
    exactRetention: true,
    cleanup: () => bus.close(),
  };
});

describe('createMemoryBus', () => {
  it('caps the log at 250,000 events per league by default', () => {
    expect(createMemoryBus().retention).toBe(DEFAULT_RETENTION);
    expect(DEFAULT_RETENTION).toBe(500_000);
  });

  it('rejects a retention that is not a positive integer, naming the field', () => {
    expect(() => createMemoryBus({ retention: 0 })).toThrow(/retention/);
    expect(() => createMemoryBus({ retention: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('keeps offsets increasing when the clock stands still or goes back', async () => {
    let clock = 5_000;
    const bus = createMemoryBus({ now: () => clock });
    const g = gameKey('1');
    const a = await bus.commit(g, makeEvents(g, 1, 2), { meta: null });
    clock = 4_000;
    const b = await bus.commit(g, makeEvents(g, 3, 1), { meta: null });
    clock = 6_000;
    const c = await bus.commit(g, makeEvents(g, 4, 1), { meta: null });
    expect([...(a ?? []), ...(b ?? []), ...(c ?? [])].map((e) => e.offset)).toEqual([
      '5000-0',
      '5000-1',
      '5000-2',
      '6000-0',
    ]);
    await bus.close();
  });

  it('wraps the ring many times and still reads the newest events in order', async () => {
    const bus = createMemoryBus({ retention: 7, now: () => 1 });
    const g = gameKey('2');
    for (let i = 0; i < 10; i++) await bus.commit(g, makeEvents(g, i * 5 + 1, 5), { meta: null });
    expect((await bus.read(null, 100)).map((e) => e.seq)).toEqual([44, 45, 46, 47, 48, 49, 50]);
    expect((await bus.read('1-45', 3)).map((e) => e.seq)).toEqual([47, 48, 49]);
    // Seq k got offset 1-(k-1): the clock says 1 ms throughout.
    expect(await bus.bounds()).toEqual({ first: '1-43', last: '1-49', trimmedThrough: '1-42' });
    await bus.close();
  });

  it('wakes a waiting tail on the commit itself, one batch per commit when the reader keeps up', async () => {
    const bus = createMemoryBus();
    const g = gameKey('3');
    const tail = collect(bus, null);
    await bus.commit(g, makeEvents(g, 1, 3), { meta: null });
    await tail.until(3, 1_000);
    await bus.commit(g, makeEvents(g, 4, 2), { meta: null });
    await tail.until(5, 1_000);
    await tail.stop();
    expect(tail.batches).toEqual([3, 2]);
    await bus.close();
  });
});
