import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/model/events.js';
import type { League } from '../../src/core/leagues.js';
import {
  compareOffsets,
  OFFSET_PATTERN,
  type Bus,
  type GameKey,
  type NewGameEvent,
  type Offset,
} from '../../src/bus/types.js';
import { makeEvents } from '../support/events.js';

/** One bus under test, and how to make lease time pass for it. */
export interface BusHarness {
  bus: Bus;
  /** Lets `ms` of lease time pass: virtual for memory, real for Redis. */
  advance(ms: number): Promise<void>;
  /** Long enough that a lease cannot lapse during a few commands on a loaded machine. */
  leaseTtlMs: number;
  /** Memory trims to exactly `retention`; Redis `MAXLEN ~` keeps at least that many. */
  exactRetention: boolean;
  /** Closes the bus and removes what the test stored. */
  cleanup(): Promise<void>;
}

export type BusFactory = (options: { retention?: number }) => Promise<BusHarness>;

/** Generous: several engineers run tests at once on two cores. */
const WAIT_MS = 20_000;

export function gameKey(gameId: string, league: League = 'mens'): GameKey {
  return { league, gameId };
}

/** Reads a tail in the background; `until(n)` resolves once n events arrived. */
export function collect(bus: Bus, after: Offset | null) {
  const controller = new AbortController();
  const events: GameEvent[] = [];
  const batches: number[] = [];
  let wake: (() => void) | undefined;
  const done = (async () => {
    for await (const batch of bus.tail(after, controller.signal)) {
      events.push(...batch);
      batches.push(batch.length);
      wake?.();
    }
  })();
  return {
    events,
    batches,
    done,
    async until(count: number, timeoutMs = WAIT_MS): Promise<GameEvent[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`tail delivered ${events.length} of ${count} events in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return events;
    },
    async stop(): Promise<void> {
      controller.abort();
      await done;
    },
  };
}

function offsetsOf(events: readonly GameEvent[]): string[] {
  return events.map((e) => e.offset ?? 'missing');
}

function expectIncreasing(offsets: readonly string[]): void {
  for (const o of offsets) expect(o).toMatch(OFFSET_PATTERN);
  for (let i = 1; i < offsets.length; i++) {
    expect(compareOffsets(offsets[i - 1] as string, offsets[i] as string)).toBeLessThan(0);
  }
}

async function commitAll(bus: Bus, game: GameKey, events: NewGameEvent[]): Promise<GameEvent[]> {
  const committed = await bus.commit(game, events, { meta: { seq: events.at(-1)?.seq ?? 0 } });
  if (!committed) throw new Error('unfenced commit returned null');
  return committed;
}

/** The behaviour every Bus implementation shares; `factory` undefined skips with `skipReason`. */
export function busContract(name: string, factory: BusFactory | undefined, skipReason = ''): void {
  describe.skipIf(!factory)(`Bus contract: ${name}${factory ? '' : ` (skipped: ${skipReason})`}`, () => {
    const harnesses: BusHarness[] = [];
    const open = async (options: { retention?: number } = {}): Promise<BusHarness> => {
      const h = await (factory as BusFactory)(options);
      harnesses.push(h);
      return h;
    };
    afterEach(async () => {
      await Promise.all(harnesses.splice(0).map((h) => h.cleanup()));
    });

    it('assigns strictly increasing offsets, returned in commit order', async () => {
      const { bus } = await open();
      const g = gameKey('401');
      const first = await commitAll(bus, g, makeEvents(g, 1, 3));
      const second = await commitAll(bus, g, makeEvents(g, 4, 2));
      const all = [...first, ...second];
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expectIncreasing(offsetsOf(all));
      expect(all[0]?.id).toBe('mens-401-1-score.changed');
    });

    it('reads strictly after an offset, oldest first, at most limit', async () => {
      const { bus } = await open();
      expect(await bus.read(null, 10)).toEqual([]);
      const g = gameKey('402', 'womens');
      const committed = await commitAll(bus, g, makeEvents(g, 1, 6));
      const offsets = offsetsOf(committed);

      expect(offsetsOf(await bus.read(null, 100))).toEqual(offsets);
      expect(offsetsOf(await bus.read(offsets[1] as string, 100))).toEqual(offsets.slice(2));
      expect(offsetsOf(await bus.read(offsets[1] as string, 2))).toEqual(offsets.slice(2, 4));
      expect(await bus.read(offsets[5] as string, 100)).toEqual([]);
      expect(await bus.read(null, 0)).toEqual([]);

      const read = await bus.read(offsets[0] as string, 1);
      expect(read[0]).toEqual(committed[1]);

      await expect(bus.read('yesterday', 1)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
      expect(() => bus.tail('12-x')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    });

    it('reports bounds of the log', async () => {
      const { bus } = await open();
      expect(await bus.bounds()).toEqual({ first: null, last: null, trimmedThrough: null });
      const g = gameKey('403');
      const committed = offsetsOf(await commitAll(bus, g, makeEvents(g, 1, 4)));
      expect(await bus.bounds()).toEqual({ first: committed[0], last: committed[3], trimmedThrough: null });
    });

    it('trims to the retention and reports the newest trimmed offset', async () => {
      const retention = 50;
      const { bus, exactRetention } = await open({ retention });
      expect(bus.retention).toBe(retention);
      const g = gameKey('404');
      const committed: string[] = [];
      // 400 events: far past retention plus one Redis stream node (100 entries), so `~` must trim.
      for (let i = 0; i < 20; i++)
        committed.push(...offsetsOf(await commitAll(bus, g, makeEvents(g, i * 20 + 1, 20))));

      const retained = offsetsOf(await bus.read(null, 10_000));
      expect(retained.length).toBeGreaterThanOrEqual(retention);
      expect(retained.length).toBeLessThan(committed.length);
      if (exactRetention) expect(retained.length).toBe(retention);
      // What is kept is exactly the newest suffix of what was committed.
      expect(retained).toEqual(committed.slice(committed.length - retained.length));

      const bounds = await bus.bounds();
      const firstIndex = committed.length - retained.length;
      expect(bounds.first).toBe(retained[0]);
      expect(bounds.last).toBe(committed.at(-1));
      expect(bounds.trimmedThrough).toBe(committed[firstIndex - 1]);
      // Resuming right at the trim boundary loses nothing.
      expect(offsetsOf(await bus.read(bounds.trimmedThrough, 10_000))).toEqual(retained);
    });

    it('tails every event exactly once, in order, while commits run concurrently', async () => {
      const { bus } = await open();
      const before = gameKey('405');
      await commitAll(bus, before, makeEvents(before, 1, 3)); // not part of a tail from now on
      const tail = collect(bus, null);
      const writers = ['501', '502', '503'].map(async (id, w) => {
        const g = gameKey(id, w % 2 === 0 ? 'mens' : 'womens');
        const out: GameEvent[] = [];
        for (let i = 0; i < 25; i++)
          out.push(...(await commitAll(bus, g, makeEvents(g, i * 3 + 1, (i % 3) + 1))));
        return out;
      });
      const committed = (await Promise.all(writers)).flat();
      const expected = offsetsOf(committed).sort(compareOffsets);
      const got = await tail.until(expected.length);
      await new Promise((r) => setTimeout(r, 50)); // would reveal a duplicate delivered late
      await tail.stop();
      expect(offsetsOf(got)).toEqual(expected);
      const byOffset = new Map(committed.map((e) => [e.offset, e.id]));
      expect(got.map((e) => e.id)).toEqual(expected.map((o) => byOffset.get(o)));
    });

    it('tails from an offset: replays then continues live, no gap, no duplicate', async () => {
      const { bus } = await open();
      const g = gameKey('406');
      const early = await commitAll(bus, g, makeEvents(g, 1, 10));
      const from = early[3]?.offset as string;
      const tail = collect(bus, from);
      const late: GameEvent[] = [];
      for (let i = 0; i < 10; i++) late.push(...(await commitAll(bus, g, makeEvents(g, 11 + i * 2, 2))));
      const expected = offsetsOf([...early.slice(4), ...late]);
      const got = await tail.until(expected.length);
      await new Promise((r) => setTimeout(r, 50));
      await tail.stop();
      expect(offsetsOf(got)).toEqual(expected);
      expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 26 }, (_, i) => i + 5));
    });

    it('ends a tail when its signal aborts, also while waiting and before it starts', async () => {
      const { bus } = await open();
      const waiting = collect(bus, null);
      await new Promise((r) => setTimeout(r, 50));
      await waiting.stop(); // resolves only if the iteration ended
      expect(waiting.events).toEqual([]);

      const aborted = new AbortController();
      aborted.abort();
      const batches: GameEvent[][] = [];
      for await (const batch of bus.tail(null, aborted.signal)) batches.push(batch);
      expect(batches).toEqual([]);
    });

    it('ends tails when the bus closes, and close is idempotent', async () => {
      const { bus } = await open();
      const tail = collect(bus, null);
      await new Promise((r) => setTimeout(r, 50));
      await bus.close();
      await tail.done;
      await bus.close();
      await expect(bus.commit(gameKey('407'), [], { meta: null })).rejects.toMatchObject({
        code: 'BUS_CLOSED',
      });
      await expect(bus.read(null, 1)).rejects.toMatchObject({ code: 'BUS_CLOSED' });
    });

    it('fences commits with the lease: a non-owner commit writes nothing', async () => {
      const { bus, leaseTtlMs } = await open();
      const g = gameKey('408');
      expect(await bus.acquireLease(g, 'a', leaseTtlMs)).toBe('taken');
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe(false);
      expect(await bus.acquireLease(g, 'a', leaseTtlMs)).toBe('renewed');

      const fenced = await bus.commit(g, makeEvents(g, 1, 2), { meta: { by: 'b' }, set: [['p1', 1]] }, 'b');
      expect(fenced).toBeNull();
      expect(await bus.read(null, 10)).toEqual([]);
      expect(await bus.loadGame(g)).toBeUndefined();
      expect(await bus.listGames()).toEqual([]);

      const owned = await bus.commit(g, makeEvents(g, 1, 2), { meta: { by: 'a' } }, 'a');
      expect(owned?.map((e) => e.seq)).toEqual([1, 2]);
      expect((await bus.loadGame(g))?.meta).toEqual({ by: 'a' });

      // Only the owner can release.
      await bus.releaseLease(g, 'b');
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe(false);
      await bus.releaseLease(g, 'a');
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe('taken');
      expect(await bus.commit(g, makeEvents(g, 3, 1), { meta: { by: 'a' } }, 'a')).toBeNull();
      expect((await bus.read(null, 10)).length).toBe(2);
    });

    it('lets a lease expire and another owner take over; renewal keeps it', async () => {
      const { bus, leaseTtlMs, advance } = await open();
      const g = gameKey('409', 'womens');
      expect(await bus.acquireLease(g, 'a', leaseTtlMs)).toBe('taken');
      await advance(leaseTtlMs / 2);
      expect(await bus.acquireLease(g, 'a', leaseTtlMs)).toBe('renewed');
      // Past the first grant's expiry, but within the renewal's.
      await advance(leaseTtlMs * 0.6);
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe(false);
      expect(await bus.commit(g, makeEvents(g, 1, 1), { meta: 1 }, 'a')).not.toBeNull();

      await advance(leaseTtlMs + 100);
      expect(await bus.commit(g, makeEvents(g, 2, 1), { meta: 2 }, 'a')).toBeNull();
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe('taken');
      expect(await bus.acquireLease(g, 'a', leaseTtlMs)).toBe(false);
      expect(await bus.commit(g, makeEvents(g, 2, 1), { meta: 2 }, 'b')).not.toBeNull();
      expect((await bus.read(null, 10)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await bus.loadGame(g))?.meta).toBe(2);
      // An owner whose lease lapsed with nobody taking it gets it back as `taken`, not `renewed`.
      await advance(leaseTtlMs + 100);
      expect(await bus.acquireLease(g, 'b', leaseTtlMs)).toBe('taken');
    });

    it('keeps the newest offered copy of a lost game until it lapses, and says when the game is stored', async () => {
      const { bus, leaseTtlMs, advance } = await open();
      const g = gameKey('413', 'womens');
      expect(await bus.offerCopy(g, 'a', null, leaseTtlMs)).toBeNull();
      expect(await bus.offerCopy(g, 'a', 5, leaseTtlMs)).toEqual({ owner: 'a', seq: 5 });
      // A newer copy wins; an older one or a tie does not replace it.
      expect(await bus.offerCopy(g, 'b', 7, leaseTtlMs)).toEqual({ owner: 'b', seq: 7 });
      expect(await bus.offerCopy(g, 'c', 7, leaseTtlMs)).toEqual({ owner: 'b', seq: 7 });
      expect(await bus.offerCopy(g, 'a', 5, leaseTtlMs)).toEqual({ owner: 'b', seq: 7 });
      // Its owner's repeat renews it past the first offer's expiry; only looking does not.
      await advance(leaseTtlMs * 0.6);
      expect(await bus.offerCopy(g, 'b', 7, leaseTtlMs)).toEqual({ owner: 'b', seq: 7 });
      await advance(leaseTtlMs * 0.6);
      expect(await bus.offerCopy(g, 'x', null, leaseTtlMs)).toEqual({ owner: 'b', seq: 7 });
      await advance(leaseTtlMs * 0.6);
      expect(await bus.offerCopy(g, 'x', null, leaseTtlMs)).toBeNull();
      expect(await bus.offerCopy(g, 'a', 5, leaseTtlMs)).toEqual({ owner: 'a', seq: 5 });
      // Once the state is written back there is nothing to offer for.
      await bus.commit(g, [], { meta: { seq: 5 } });
      expect(await bus.offerCopy(g, 'b', 7, leaseTtlMs)).toBe('stored');
      expect(await bus.offerCopy(g, 'x', null, leaseTtlMs)).toBe('stored');
    });

    it('expires a game after its TTL; a commit before then keeps it', async () => {
      const { bus, advance, leaseTtlMs } = await open();
      const done = gameKey('411');
      const corrected = gameKey('412');
      await bus.commit(done, [], { meta: 'final', set: [['p1', 1]] });
      await bus.commit(corrected, [], { meta: 'final' });
      await bus.expireGame(done, leaseTtlMs);
      await bus.expireGame(corrected, leaseTtlMs);
      await bus.commit(corrected, [], { meta: 'corrected', set: [['p2', 2]] });
      expect((await bus.listGames()).map((g) => g.gameId).sort()).toEqual(['411', '412']);
      await advance(leaseTtlMs + 200);
      expect(await bus.loadGame(done)).toBeUndefined();
      expect((await bus.listGames()).map((g) => [g.gameId, g.meta])).toEqual([['412', 'corrected']]);
      expect([...((await bus.loadGame(corrected))?.entries.keys() ?? [])]).toEqual(['p2']);
    });

    it('replaces the stored entries wholesale on a replace delta', async () => {
      const { bus } = await open();
      const g = gameKey('410');
      await bus.commit(g, [], {
        meta: 1,
        set: [
          ['p1', 'a'],
          ['p2', 'b'],
        ],
      });
      await bus.commit(g, [], { meta: 2, set: [['p3', 'c']], replace: true });
      const stored = await bus.loadGame(g);
      expect(stored?.meta).toBe(2);
      expect([...(stored?.entries ?? [])]).toEqual([['p3', 'c']]);
    });

    it('applies a re-sent commit once and returns its first offsets', async () => {
      const { bus } = await open();
      const g = gameKey('412');
      const events = makeEvents(g, 1, 3);
      const first = await bus.commit(g, events, { meta: { seq: 3 } });
      const again = await bus.commit(g, events, { meta: { seq: 3 } });
      expect(offsetsOf(again ?? [])).toEqual(offsetsOf(first ?? []));
      expect((await bus.read(null, 10)).map((e) => e.seq)).toEqual([1, 2, 3]);
      // The next commit is new even if it repeats an older one's shape.
      const next = await bus.commit(g, makeEvents(g, 4, 3), { meta: { seq: 6 } });
      expect(next?.map((e) => e.seq)).toEqual([4, 5, 6]);
      expect((await bus.read(null, 10)).length).toBe(6);
      // Deleting the game forgets the previous commit.
      await bus.deleteGame(g);
      expect((await bus.commit(g, makeEvents(g, 4, 3), { meta: null }))?.length).toBe(3);
      expect((await bus.read(null, 10)).length).toBe(9);
    });

    it('applies state deltas and lists, loads and deletes games', async () => {
      const { bus } = await open();
      const g1 = gameKey('410');
      const g2 = gameKey('411', 'womens');
      expect(await bus.loadGame(g1)).toBeUndefined();

      const play = { id: 'p1', text: 'Jump ball', score: [0, 0] };
      await bus.commit(g1, makeEvents(g1, 1, 1), {
        meta: { seq: 1, snapshot: { state: 'in' } },
        set: [
          ['p1', play],
          ['p2', { id: 'p2' }],
          ['p3', { id: 'p3' }],
        ],
      });
      play.text = 'mutated after commit'; // stored state must be a copy
      const stateOnly = await bus.commit(g2, [], { meta: { seq: 0 } });
      expect(stateOnly).toEqual([]);

      const loaded = await bus.loadGame(g1);
      expect(loaded?.meta).toEqual({ seq: 1, snapshot: { state: 'in' } });
      expect(Object.fromEntries(loaded?.entries ?? [])).toEqual({
        p1: { id: 'p1', text: 'Jump ball', score: [0, 0] },
        p2: { id: 'p2' },
        p3: { id: 'p3' },
      });

      await bus.commit(g1, makeEvents(g1, 2, 1), {
        meta: { seq: 2 },
        set: [['p2', { id: 'p2', text: 'updated' }]],
        delete: ['p1', 'missing'],
      });
      const after = await bus.loadGame(g1);
      expect(after?.meta).toEqual({ seq: 2 });
      expect(Object.fromEntries(after?.entries ?? [])).toEqual({
        p2: { id: 'p2', text: 'updated' },
        p3: { id: 'p3' },
      });

      const listed = (await bus.listGames()).sort((a, b) => a.gameId.localeCompare(b.gameId));
      expect(listed).toEqual([
        { league: 'mens', gameId: '410', meta: { seq: 2 } },
        { league: 'womens', gameId: '411', meta: { seq: 0 } },
      ]);
      expect((await bus.read(null, 10)).length).toBe(2);

      await bus.deleteGame(g1);
      expect(await bus.loadGame(g1)).toBeUndefined();
      expect((await bus.listGames()).map((g) => g.gameId)).toEqual(['411']);
      // Deleting state leaves the log alone: it is history.
      expect((await bus.read(null, 10)).length).toBe(2);
    });
  });
}
