import { describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/model/events.js';
import { createSnapshotSource } from '../../streams/snapshot-source.js';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { game, makeSnapshot } from '../support/events.js';

const LAL = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);
const LV = game('womens', '501', ['17', 'LV'], ['9', 'NY']);

/** A memory bus whose `listGames` calls are counted. */
function countingBus(): { bus: Bus; reads: () => number } {
  const inner = createMemoryBus();
  let reads = 0;
  const bus: Bus = Object.create(inner, {
    listGames: {
      value: () => {
        reads += 1;
        return inner.listGames();
      },
    },
  });
  return { bus, reads: () => reads };
}

async function store(bus: Bus, snapshot: GameSnapshot): Promise<void> {
  await bus.commit({ league: snapshot.league, gameId: snapshot.gameId }, [], { meta: { snapshot } });
}

describe('snapshot source', () => {
  it('hands out an unchanged snapshot as the same object, and a changed one as a new object', async () => {
    const { bus } = countingBus();
    const source = createSnapshotSource(bus);
    const first = makeSnapshot(LAL);
    await store(bus, first);
    await store(bus, makeSnapshot(LV));

    const [a1, b1] = await source.list();
    const [a2, b2] = await source.list();
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(await source.snapshot('mens', '401')).toBe(a1);

    await store(bus, { ...first, seq: 1, score: { home: 2, away: 0 } });
    const changed = await source.snapshot('mens', '401');
    expect(changed).not.toBe(a1);
    expect(changed).toMatchObject({ seq: 1, score: { home: 2, away: 0 } });
    const [a3, b3] = await source.list();
    expect(a3).toBe(changed);
    expect(b3).toBe(b1);
  });

  it('shares one read between the listings of one turn, never a read issued before a call', async () => {
    const { bus, reads } = countingBus();
    const source = createSnapshotSource(bus);
    await store(bus, makeSnapshot(LAL));
    const together = await Promise.all(Array.from({ length: 50 }, () => source.list()));
    expect(reads()).toBe(1);
    expect(new Set(together).size).toBe(1);

    // A call made once the shared read is under way gets a read of its own, issued after it.
    const first = source.list();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads()).toBe(2);
    await store(bus, { ...makeSnapshot(LAL), seq: 5 });
    const second = source.list();
    expect((await second)[0]?.seq).toBe(5);
    expect((await first)[0]?.seq).toBe(0);
    expect(reads()).toBe(3);
  });

  it('forgets a game the store no longer holds', async () => {
    const { bus } = countingBus();
    const source = createSnapshotSource(bus);
    await store(bus, makeSnapshot(LAL));
    expect(await source.list()).toHaveLength(1);
    await bus.deleteGame({ league: 'mens', gameId: '401' });
    expect(await source.list()).toEqual([]);
    expect(await source.snapshot('mens', '401')).toBeUndefined();
  });
});
